//! Monte Carlo tree search over any [`Game`] with a [`BotPolicy`]: PUCT selection with the
//! policy's move scores as priors (progressive bias), short greedy-ish playouts cut off by the
//! static evaluation, and max-n backup (a value per seat; each node's mover maximises its own).

use super::policy::{final_values, BotPolicy, SeatValues, MAX_SEATS};
use super::portable_math::portable_exp;
use super::rng::SplitMix64;

/// Exploration weight of the PUCT formula (values are in [0, 1]).
const EXPLORATION: f64 = 1.2;
/// How much a seed may perturb the priors: enough to vary games, too little to change plans.
const PRIOR_NOISE: f64 = 0.15;
/// An unvisited child starts at its parent's value minus this (first-play urgency).
const FIRST_PLAY_PENALTY: f64 = 0.1;
/// Below the root, only this many moves (the best by prior) are searched: it keeps memory
/// bounded where positions have hundreds of moves (Kechi, big SanQi boards).
const INNER_MOVES: usize = 48;

/// One position of the tree.
struct Node<G: BotPolicy> {
    game: G,
    /// The 0-based seat to move, or `None` when the game is over.
    mover: Option<usize>,
    /// Filled the first time the search goes through this node.
    edges: Option<Vec<Edge<G>>>,
    visits: u32,
    value_sum: SeatValues,
}

/// A move from a node: its prior, and the child node once created.
struct Edge<G: BotPolicy> {
    mv: G::Move,
    prior: f64,
    child: Option<usize>,
}

/// The search tree, in an arena (nodes refer to each other by index).
pub(crate) struct Search<G: BotPolicy> {
    nodes: Vec<Node<G>>,
    seats: usize,
    rng: SplitMix64,
}

impl<G: BotPolicy> Search<G> {
    pub(crate) fn new(root: &G, seed: u64) -> Search<G> {
        let seats = usize::from(root.seat_count()).min(MAX_SEATS);
        let mut search = Search {
            nodes: Vec::new(),
            seats,
            rng: SplitMix64::new(seed),
        };
        search.add_node(root.clone());
        search
    }

    fn add_node(&mut self, game: G) -> usize {
        let mover = game.to_move().map(|seat| seat.index());
        self.nodes.push(Node {
            game,
            mover,
            edges: None,
            visits: 0,
            value_sum: [0.0; MAX_SEATS],
        });
        self.nodes.len() - 1
    }

    /// Runs `iterations` iterations, then returns the root's most visited move and the mean
    /// value per seat the search found for the root.
    pub(crate) fn best_move(mut self, iterations: u32) -> Option<(G::Move, SeatValues)> {
        for _ in 0..iterations {
            self.iterate();
        }
        let root = self.nodes.first()?;
        let edges = root.edges.as_ref()?;
        let mut values = root.value_sum;
        for value in &mut values {
            *value /= f64::from(root.visits.max(1));
        }
        let score = |edge: &Edge<G>| {
            let visits = edge
                .child
                .and_then(|child| self.nodes.get(child))
                .map_or(0, |node| node.visits);
            (visits, edge.prior)
        };
        let mut best: Option<&Edge<G>> = None;
        for edge in edges {
            let better = match best {
                None => true,
                Some(current) => {
                    let (visits, prior) = score(edge);
                    let (best_visits, best_prior) = score(current);
                    visits > best_visits || (visits == best_visits && prior > best_prior)
                }
            };
            if better {
                best = Some(edge);
            }
        }
        best.map(|edge| (edge.mv.clone(), values))
    }

    /// Runs `iterations` iterations, then returns the root's moves best first (most visited,
    /// then highest prior: the first is [`Search::best_move`]'s) and the root's mean value per
    /// seat: for a caller that may have to pass over the best (see `choose.rs`).
    pub(crate) fn ranked_moves(mut self, iterations: u32) -> Option<(Vec<G::Move>, SeatValues)> {
        for _ in 0..iterations {
            self.iterate();
        }
        let root = self.nodes.first()?;
        let edges = root.edges.as_ref()?;
        let mut values = root.value_sum;
        for value in &mut values {
            *value /= f64::from(root.visits.max(1));
        }
        let mut ranked: Vec<(u32, f64, &G::Move)> = edges
            .iter()
            .map(|edge| {
                let visits = edge
                    .child
                    .and_then(|child| self.nodes.get(child))
                    .map_or(0, |node| node.visits);
                (visits, edge.prior, &edge.mv)
            })
            .collect();
        // Stable: among equal visits and priors the first in generation order stays first, as
        // in `best_move`.
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.total_cmp(&a.1)));
        Some((
            ranked.into_iter().map(|(_, _, mv)| mv.clone()).collect(),
            values,
        ))
    }

    /// One iteration: select down the tree, add one node, evaluate it, back the values up.
    fn iterate(&mut self) {
        let mut path = vec![0usize];
        let mut current = 0usize;
        loop {
            let Some(node) = self.nodes.get(current) else {
                return;
            };
            let Some(mover) = node.mover else { break };
            if node.visits == 0 && current != 0 {
                break;
            }
            if node.edges.is_none() {
                self.expand(current);
            }
            let Some(edge_index) = self.select(current, mover) else {
                break;
            };
            let child = self.child(current, edge_index);
            let Some(child) = child else { break };
            path.push(child);
            current = child;
        }
        let values = self.leaf_values(current);
        for index in path {
            if let Some(node) = self.nodes.get_mut(index) {
                node.visits += 1;
                for (sum, value) in node.value_sum.iter_mut().zip(values.iter()) {
                    *sum += value;
                }
            }
        }
    }

    /// Lists a node's moves with their priors: a softmax of the policy's scores, lightly noised.
    fn expand(&mut self, index: usize) {
        let Some(node) = self.nodes.get(index) else {
            return;
        };
        let moves = node.game.legal_moves();
        let scores: Vec<f64> = moves
            .iter()
            .map(|mv| node.game.move_score(mv) / G::PRIOR_TEMPERATURE)
            .collect();
        let top = scores.iter().copied().fold(f64::MIN, f64::max);
        let mut weights: Vec<f64> = scores
            .iter()
            .map(|score| portable_exp(score - top) * (1.0 + PRIOR_NOISE * self.rng.unit()))
            .collect();
        let total: f64 = weights.iter().sum();
        if total > 0.0 {
            for weight in &mut weights {
                *weight /= total;
            }
        }
        let mut edges: Vec<Edge<G>> = moves
            .into_iter()
            .zip(weights)
            .map(|(mv, prior)| Edge {
                mv,
                prior,
                child: None,
            })
            .collect();
        if index != 0 && edges.len() > INNER_MOVES {
            // A stable sort keeps generation order among equal priors: deterministic.
            edges.sort_by(|a, b| b.prior.total_cmp(&a.prior));
            edges.truncate(INNER_MOVES);
        }
        if let Some(node) = self.nodes.get_mut(index) {
            node.edges = Some(edges);
        }
    }

    /// The edge maximising the mover's value plus the exploration bonus (PUCT).
    fn select(&self, index: usize, mover: usize) -> Option<usize> {
        let node = self.nodes.get(index)?;
        let edges = node.edges.as_ref()?;
        let parent_mean = if node.visits == 0 {
            0.5
        } else {
            node.value_sum.get(mover).copied().unwrap_or(0.0) / f64::from(node.visits)
        };
        let scale = EXPLORATION * f64::from(node.visits.max(1)).sqrt();
        let mut best = None;
        let mut best_score = f64::MIN;
        for (edge_index, edge) in edges.iter().enumerate() {
            let child = edge.child.and_then(|child| self.nodes.get(child));
            let (visits, mean) = match child {
                Some(child) if child.visits > 0 => (
                    child.visits,
                    child.value_sum.get(mover).copied().unwrap_or(0.0) / f64::from(child.visits),
                ),
                _ => (0, parent_mean - FIRST_PLAY_PENALTY),
            };
            let score = mean + scale * edge.prior / (1.0 + f64::from(visits));
            if score > best_score {
                best_score = score;
                best = Some(edge_index);
            }
        }
        best
    }

    /// The child node of an edge, created on first use.
    fn child(&mut self, index: usize, edge_index: usize) -> Option<usize> {
        let edge = self.nodes.get(index)?.edges.as_ref()?.get(edge_index)?;
        if let Some(child) = edge.child {
            return Some(child);
        }
        let game = self.nodes.get(index)?.game.play_move(&edge.mv);
        let child = self.add_node(game);
        let edge = self
            .nodes
            .get_mut(index)?
            .edges
            .as_mut()?
            .get_mut(edge_index)?;
        edge.child = Some(child);
        Some(child)
    }

    /// The values of a new leaf: a short playout, then the static evaluation (or the result).
    fn leaf_values(&mut self, index: usize) -> SeatValues {
        let Some(node) = self.nodes.get(index) else {
            return [0.0; MAX_SEATS];
        };
        let mut game = node.game.clone();
        for _ in 0..G::PLAYOUT_PLIES {
            if game.status().is_over() {
                break;
            }
            let moves = game.legal_moves();
            let choice = game.playout_move(&moves, &mut self.rng);
            let Some(mv) = moves.get(choice) else { break };
            game = game.play_move(mv);
        }
        let status = game.status();
        if status.is_over() {
            final_values(&status, self.seats)
        } else {
            game.evaluate()
        }
    }
}
