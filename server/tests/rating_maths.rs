//! The rating maths (issue 27): Glickman's published Glicko-2 example, and cases computed by an
//! independent implementation of the paper's steps here in the test (not the crate's code);
//! the deviation's growth over idle days; Weng–Lin over placings.

use turnpost_server::ratings::{
    after_game, after_idle, after_placings, expected_changes, rating_period, Rating, RatingKind,
    Score,
};

const SCALE: f64 = 173.7178;
const TAU: f64 = 0.5;

/// Glickman, "Example of the Glicko-2 system", steps 2–8, for one rating period.
fn glickman(me: Rating, games: &[(Rating, f64)]) -> Rating {
    let mu = (me.rating - 1500.0) / SCALE;
    let phi = me.deviation / SCALE;
    let sigma = me.volatility;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (opponent, score) in games {
        let mu_j = (opponent.rating - 1500.0) / SCALE;
        let phi_j = opponent.deviation / SCALE;
        let expected = e(mu_j, phi_j);
        v_inv += g(phi_j).powi(2) * expected * (1.0 - expected);
        delta_sum += g(phi_j) * (score - expected);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    // Step 5: the new volatility by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    let new_sigma = (big_a / 2.0).exp();
    let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * delta_sum;
    Rating {
        rating: new_mu * SCALE + 1500.0,
        deviation: new_phi * SCALE,
        volatility: new_sigma,
    }
}

fn rating(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

fn assert_close(got: Rating, want: Rating, tolerance: f64) {
    assert!(
        (got.rating - want.rating).abs() < tolerance
            && (got.deviation - want.deviation).abs() < tolerance
            && (got.volatility - want.volatility).abs() < 1e-4,
        "got {got:?}, want {want:?}"
    );
}

#[test]
fn glickmans_published_example() {
    let player = rating(1500.0, 200.0);
    let after = rating_period(
        player,
        &[
            (rating(1400.0, 30.0), Score::Win),
            (rating(1550.0, 100.0), Score::Loss),
            (rating(1700.0, 300.0), Score::Loss),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    // The independent implementation agrees on the example too.
    let mine = glickman(
        player,
        &[
            (rating(1400.0, 30.0), 1.0),
            (rating(1550.0, 100.0), 0.0),
            (rating(1700.0, 300.0), 0.0),
        ],
    );
    assert_close(after, mine, 0.01);
}

#[test]
fn single_games_agree_with_an_independent_implementation() {
    let cases = [
        (Rating::NEW, Rating::NEW, Score::Win, 1.0),
        (Rating::NEW, Rating::NEW, Score::Draw, 0.5),
        (
            rating(1700.0, 80.0),
            rating(1450.0, 200.0),
            Score::Loss,
            0.0,
        ),
        (rating(1320.0, 60.0), rating(1910.0, 45.0), Score::Win, 1.0),
        (
            Rating {
                rating: 2050.0,
                deviation: 120.0,
                volatility: 0.059,
            },
            rating(2050.0, 350.0),
            Score::Draw,
            0.5,
        ),
    ];
    for (me, opponent, score, points) in cases {
        let got = after_game(me, opponent, score);
        let want = glickman(me, &[(opponent, points)]);
        assert_close(got, want, 0.01);
    }
    // Two new players: the winner gains what the loser loses (the lichess-style first game).
    let won = after_game(Rating::NEW, Rating::NEW, Score::Win);
    let lost = after_game(Rating::NEW, Rating::NEW, Score::Loss);
    assert!((won.rating - 1662.31).abs() < 0.01, "{won:?}");
    assert!((won.rating - 1500.0 + lost.rating - 1500.0).abs() < 1e-9);
    assert!((won.deviation - 290.32).abs() < 0.01, "{won:?}");
}

#[test]
fn deviation_grows_one_period_per_idle_day_up_to_350() {
    let settled = rating(1800.0, 60.0);
    assert_eq!(after_idle(settled, 0), settled);
    let phi = 60.0 / SCALE;
    let ten_days = (phi * phi + 10.0 * 0.06 * 0.06).sqrt() * SCALE;
    let grown = after_idle(settled, 10);
    assert!((grown.deviation - ten_days).abs() < 1e-6, "{grown:?}");
    assert_eq!(grown.rating, 1800.0);
    assert!((after_idle(settled, 100_000).deviation - 350.0).abs() < 1e-9);
    assert_eq!(after_idle(Rating::NEW, 30), Rating::NEW);
}

#[test]
fn expected_changes_before_a_game() {
    let changes = expected_changes(Rating::NEW, Rating::NEW);
    assert_eq!((changes.win, changes.draw, changes.loss), (162, 0, -162));
    let strong = rating(1900.0, 50.0);
    let changes = expected_changes(strong, rating(1500.0, 50.0));
    assert!(
        changes.win > 0 && changes.win < -changes.loss,
        "{changes:?}"
    );
    assert!(changes.draw < 0, "{changes:?}");
}

#[test]
fn multi_player_games_rate_over_the_placings() {
    let players = [Rating::NEW; 4];
    let after = after_placings(&players, &[1, 2, 3, 4]);
    assert!(after[0].rating > after[1].rating);
    assert!(after[1].rating > after[2].rating);
    assert!(after[2].rating > after[3].rating);
    // Equal players, symmetric places: what the first gains the last loses.
    assert!((after[0].rating - 1500.0 + after[3].rating - 1500.0).abs() < 1e-6);
    assert!(after.iter().all(|r| r.deviation < 350.0));
    // A shared place between equals changes no rating.
    let tied = after_placings(&players[..3], &[1, 1, 1]);
    assert!(
        tied.iter().all(|r| (r.rating - 1500.0).abs() < 1e-9),
        "{tied:?}"
    );
    // Mismatched input rates nobody.
    assert_eq!(after_placings(&players, &[1, 2]), players.to_vec());
}

#[test]
fn rating_kinds_by_seats_and_name() {
    use turnpost_shared::GameKind;
    assert_eq!(
        RatingKind::of_game(GameKind::ChineseCheckers, 2).to_string(),
        "chinese-checkers"
    );
    assert_eq!(
        RatingKind::of_game(GameKind::ChineseCheckers, 6).to_string(),
        "chinese-checkers-multi"
    );
    let names: Vec<String> = RatingKind::all().iter().map(ToString::to_string).collect();
    assert!(
        names.contains(&"kefren".to_owned())
            && names.contains(&"chinese-checkers-multi".to_owned())
    );
    assert!(!names.contains(&"kefren-multi".to_owned()));
    assert!("Chinese-Checkers-Multi"
        .parse::<RatingKind>()
        .unwrap()
        .is_multi());
    let error = "chess".parse::<RatingKind>().unwrap_err().to_string();
    assert!(
        error.contains("chess") && error.contains("sanqi"),
        "{error}"
    );
}
