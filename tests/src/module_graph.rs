//! Which file of a crate imports which, read from the source text: every `crate::…`,
//! `super::…` and `self::…` path (in `use` lines, with their `{…}` groups, and inline in code),
//! resolved to the file of the longest module prefix and followed through re-exports
//! (`pub use child::Name`) to the file that defines the name. Comments, doc links and
//! `#[cfg(test)]` modules are not imports.
//!
//! Two ways a crate can go round in a circle, both reported:
//! - **files**: a set of files that import each other (a strongly connected component);
//! - **folders**: at any level of the module tree, sibling modules (a folder counts as one)
//!   whose files import each other, e.g. `routes/…` uses `web/…` and `web/…` uses `routes/…`.
//!
//! A module's edges to its own descendants (declarations, re-exports) and a child's use of its
//! ancestors' items are the tree's own shape, not imports between siblings.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path inside a crate: `["games", "moving"]`; the crate root is empty.
pub type ModulePath = Vec<String>;

/// The files of one crate's `src` folder and the imports between them.
#[derive(Debug, Default)]
pub struct ModuleGraph {
    /// Every module that has a file, with that file.
    pub files: BTreeMap<ModulePath, PathBuf>,
    /// For each module, the modules it imports (never itself or its own descendants).
    pub edges: BTreeMap<ModulePath, BTreeSet<ModulePath>>,
}

/// One circle found in a crate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    /// `files` or `folders under <module>`.
    pub kind: String,
    /// The members of the circle (module paths joined with `::`), sorted.
    pub members: Vec<String>,
    /// One import per member that keeps the circle closed: `from → to` file pairs.
    pub witnesses: Vec<String>,
}

impl std::fmt::Display for Cycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.members.join(", "))?;
        for witness in &self.witnesses {
            write!(f, "\n    {witness}")?;
        }
        Ok(())
    }
}

impl ModuleGraph {
    /// Reads every `.rs` file under `src` (the folder with `lib.rs` or `main.rs`).
    ///
    /// # Errors
    /// A folder or file that cannot be read.
    pub fn read(src: &Path) -> std::io::Result<Self> {
        let mut graph = Self::default();
        let mut texts = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let module = module_of(src, &path);
                    let text = code_only(&std::fs::read_to_string(&path)?);
                    texts.insert(module.clone(), text);
                    graph.files.insert(module, path);
                }
            }
        }
        let reexports: BTreeMap<ModulePath, BTreeMap<String, ModulePath>> = texts
            .iter()
            .map(|(module, text)| (module.clone(), reexports_of(module, text)))
            .collect();
        for (module, text) in &texts {
            let mut targets = BTreeSet::new();
            for path in paths_in(module, text) {
                if let Some(target) = graph.resolve(&reexports, &path) {
                    if !target.starts_with(module) {
                        targets.insert(target);
                    }
                }
            }
            graph.edges.insert(module.clone(), targets);
        }
        Ok(graph)
    }

    /// The file module a path names, following re-exports to the defining child.
    fn resolve(
        &self,
        reexports: &BTreeMap<ModulePath, BTreeMap<String, ModulePath>>,
        path: &[String],
    ) -> Option<ModulePath> {
        let mut path = path.to_vec();
        let mut found = self.longest_prefix(&path)?;
        // A few hops: `crate::games::GameError` → games/mod.rs re-exports `error::GameError`.
        for _ in 0..8 {
            let Some(name) = path.get(found.len()) else {
                break;
            };
            let Some(via) = reexports.get(&found).and_then(|names| names.get(name)) else {
                break;
            };
            let mut next = via.clone();
            next.extend(path.iter().skip(found.len() + 1).cloned());
            let Some(next_found) = self.longest_prefix(&next) else {
                break;
            };
            if next_found == found {
                break;
            }
            path = next;
            found = next_found;
        }
        Some(found)
    }

    fn longest_prefix(&self, path: &[String]) -> Option<ModulePath> {
        (0..=path.len())
            .rev()
            .map(|n| path.iter().take(n).cloned().collect::<ModulePath>())
            .find(|prefix| self.files.contains_key(prefix))
    }

    fn file_name(&self, module: &ModulePath) -> String {
        self.files
            .get(module)
            .map_or_else(|| module.join("::"), |p| p.display().to_string())
    }

    /// Sets of files that import each other.
    #[must_use]
    pub fn file_cycles(&self) -> Vec<Cycle> {
        strongly_connected(&self.edges)
            .into_iter()
            .map(|members| Cycle {
                kind: "files".to_string(),
                witnesses: self.witnesses(&members, |from, to| {
                    self.edges.get(from).is_some_and(|e| e.contains(to))
                }),
                members: members.iter().map(|m| self.file_name(m)).collect(),
            })
            .collect()
    }

    /// Sibling modules (folders counted whole) whose files import each other.
    #[must_use]
    pub fn folder_cycles(&self) -> Vec<Cycle> {
        // Level (common parent) → sibling graph, with the file edges that made each arrow.
        let mut levels: BTreeMap<ModulePath, BTreeMap<ModulePath, BTreeSet<ModulePath>>> =
            BTreeMap::new();
        let mut made_by: BTreeMap<(ModulePath, ModulePath), (ModulePath, ModulePath)> =
            BTreeMap::new();
        for (from, targets) in &self.edges {
            for to in targets {
                let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
                // A child using its ancestor's items is the tree's own shape.
                let (Some(_), Some(_)) = (from.get(common), to.get(common)) else {
                    continue;
                };
                let from_top: ModulePath = from.iter().take(common + 1).cloned().collect();
                let to_top: ModulePath = to.iter().take(common + 1).cloned().collect();
                let level: ModulePath = from.iter().take(common).cloned().collect();
                let graph = levels.entry(level).or_default();
                graph.entry(to_top.clone()).or_default();
                graph
                    .entry(from_top.clone())
                    .or_default()
                    .insert(to_top.clone());
                made_by
                    .entry((from_top, to_top))
                    .or_insert_with(|| (from.clone(), to.clone()));
            }
        }
        let mut cycles = Vec::new();
        for (level, graph) in &levels {
            for members in strongly_connected(graph) {
                // Every arrow inside the circle, with the files behind it: any one of them
                // may be the one to turn round.
                let mut witnesses = Vec::new();
                for from in &members {
                    for to in graph.get(from).into_iter().flatten() {
                        if !members.contains(to) {
                            continue;
                        }
                        let mut text = format!("{} → {}", from.join("::"), to.join("::"));
                        if let Some((a, b)) = made_by.get(&(from.clone(), to.clone())) {
                            text.push_str(&format!(
                                " ({} uses {})",
                                self.file_name(a),
                                self.file_name(b)
                            ));
                        }
                        witnesses.push(text);
                    }
                }
                cycles.push(Cycle {
                    kind: if level.is_empty() {
                        "folders at the crate root".to_string()
                    } else {
                        format!("folders under {}", level.join("::"))
                    },
                    members: members.iter().map(|m| m.join("::")).collect(),
                    witnesses,
                });
            }
        }
        cycles
    }

    fn witnesses(
        &self,
        members: &[ModulePath],
        has_edge: impl Fn(&ModulePath, &ModulePath) -> bool,
    ) -> Vec<String> {
        arrows_of(members, has_edge)
            .into_iter()
            .map(|(from, to)| format!("{} → {}", from.join("::"), to.join("::")))
            .collect()
    }
}

/// For each member, one arrow to another member (there is one: they form a circle).
fn arrows_of(
    members: &[ModulePath],
    has_edge: impl Fn(&ModulePath, &ModulePath) -> bool,
) -> Vec<(ModulePath, ModulePath)> {
    members
        .iter()
        .filter_map(|from| {
            members
                .iter()
                .find(|to| *to != from && has_edge(from, to))
                .map(|to| (from.clone(), to.clone()))
        })
        .collect()
}

/// The module a file defines: `src/games/mod.rs` → `games`, `src/games/frame.rs` →
/// `games::frame`, `src/lib.rs` → the root.
fn module_of(src: &Path, file: &Path) -> ModulePath {
    let relative = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: ModulePath = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text without comments, string contents and `#[cfg(test)]` modules.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while chars.get(i).is_some_and(|&c| c != '\n') {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while let Some(&c) = chars.get(i) {
                let next = chars.get(i + 1).copied();
                if c == '/' && next == Some('*') {
                    depth += 1;
                    i += 2;
                } else if c == '*' && next == Some('/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            // Skip a string's contents (raw strings too, roughly: up to the closing quote).
            i += 1;
            while let Some(&c) = chars.get(i) {
                if c == '\\' {
                    i += 2;
                    continue;
                }
                i += 1;
                if c == '"' {
                    break;
                }
            }
            out.push_str("\"\"");
        } else if c == '\'' && next.is_some() && chars.get(i + 2) == Some(&'\'') {
            // A char literal such as '{' must not count as a brace.
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && next == Some('\\') {
            i += 2;
            while chars.get(i).is_some_and(|&c| c != '\'') {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    remove_test_modules(&out)
}

/// Drops every `#[cfg(test)]` item with its braces (test modules import what they test).
fn remove_test_modules(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("#[cfg(test)]") {
        out.push_str(rest.get(..start).unwrap_or(""));
        let after = rest.get(start..).unwrap_or("");
        // The item ends at `;` (a `mod tests;` line) or at its matching closing brace.
        let mut depth = 0usize;
        let mut end = after.len();
        for (offset, c) in after.char_indices() {
            match c {
                ';' if depth == 0 => {
                    end = offset + 1;
                    break;
                }
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = offset + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = after.get(end..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Every absolute module path named in `text`, `crate::`/`super::`/`self::` resolved from
/// `module`, `{…}` groups expanded.
fn paths_in(module: &ModulePath, text: &str) -> Vec<ModulePath> {
    let chars: Vec<char> = text.chars().collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let at_word_start = i == 0
            || chars
                .get(i - 1)
                .is_some_and(|c| !c.is_alphanumeric() && *c != '_' && *c != ':');
        if at_word_start {
            for head in ["crate::", "super::", "self::"] {
                if starts_with_at(&chars, i, head) {
                    let base = match head {
                        "crate::" => Vec::new(),
                        "super::" => module
                            .iter()
                            .take(module.len().saturating_sub(1))
                            .cloned()
                            .collect(),
                        _ => module.clone(),
                    };
                    let mut j = i + head.len();
                    let mut base = base;
                    // `super::super::…`
                    while starts_with_at(&chars, j, "super::") {
                        base.pop();
                        j += "super::".len();
                    }
                    let (found, end) = path_tree(&chars, j, base);
                    paths.extend(found);
                    i = end;
                    break;
                }
            }
        }
        i += 1;
    }
    paths
}

fn starts_with_at(chars: &[char], at: usize, word: &str) -> bool {
    word.chars()
        .enumerate()
        .all(|(k, w)| chars.get(at + k) == Some(&w))
}

/// Reads `a::b::{c, d::{e, f}}` from `at`, each leaf prefixed with `base`.
fn path_tree(chars: &[char], at: usize, base: ModulePath) -> (Vec<ModulePath>, usize) {
    let mut i = at;
    let mut path = base;
    loop {
        skip_space(chars, &mut i);
        if chars.get(i) == Some(&'{') {
            i += 1;
            let mut leaves = Vec::new();
            loop {
                skip_space(chars, &mut i);
                match chars.get(i) {
                    Some('}') => {
                        i += 1;
                        break;
                    }
                    Some(',') => i += 1,
                    None => break,
                    Some(_) => {
                        let before = i;
                        let (found, end) = path_tree(chars, i, path.clone());
                        leaves.extend(found);
                        i = end.max(before + 1);
                    }
                }
            }
            return (leaves, i);
        }
        let start = i;
        while chars
            .get(i)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            i += 1;
        }
        let word: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
        if word.is_empty() || word == "self" {
            return (vec![path], i);
        }
        path.push(word);
        if starts_with_at(chars, i, "::") && chars.get(i + 2) != Some(&'<') {
            i += 2;
            continue;
        }
        return (vec![path], i);
    }
}

fn skip_space(chars: &[char], i: &mut usize) {
    while chars.get(*i).is_some_and(|c| c.is_whitespace()) {
        *i += 1;
    }
}

/// Names a module file re-exports (`pub use …;`, `pub(crate) use …;`): name → the path it
/// stands for.
fn reexports_of(module: &ModulePath, text: &str) -> BTreeMap<String, ModulePath> {
    let mut names = BTreeMap::new();
    let mut rest = text;
    while let Some(start) = rest.find("pub") {
        let after = rest.get(start + 3..).unwrap_or("");
        rest = after;
        let after = after.trim_start();
        let after = if let Some(scoped) = after.strip_prefix('(') {
            scoped
                .split_once(')')
                .map_or("", |(_, tail)| tail)
                .trim_start()
        } else {
            after
        };
        let Some(statement) = after.strip_prefix("use ") else {
            continue;
        };
        let Some((statement, _)) = statement.split_once(';') else {
            continue;
        };
        // Relative paths name the file's own children (`pub use error::GameError`).
        let statement = statement.trim();
        let absolute = if statement.starts_with("crate::")
            || statement.starts_with("super::")
            || statement.starts_with("self::")
        {
            statement.to_string()
        } else {
            format!("self::{statement}")
        };
        for (alias, path) in use_leaves(module, &absolute) {
            names.insert(alias, path);
        }
    }
    names
}

/// The leaves of one `use` tree with the name each is known by (`as` aliases honoured).
fn use_leaves(module: &ModulePath, statement: &str) -> Vec<(String, ModulePath)> {
    // Expand with `paths_in`, then read aliases from the text: `X as Y` maps Y to …::X.
    let paths = paths_in(module, statement);
    let mut out = Vec::new();
    for path in paths {
        let Some(last) = path.last() else { continue };
        let alias = alias_of(statement, last).unwrap_or_else(|| last.clone());
        out.push((alias, path));
    }
    out
}

fn alias_of(statement: &str, name: &str) -> Option<String> {
    let needle = format!("{name} as ");
    let at = statement.find(&needle)?;
    let alias: String = statement
        .get(at + needle.len()..)?
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!alias.is_empty()).then_some(alias)
}

/// Strongly connected components of more than one node (Tarjan, iterative).
fn strongly_connected(edges: &BTreeMap<ModulePath, BTreeSet<ModulePath>>) -> Vec<Vec<ModulePath>> {
    let nodes: Vec<&ModulePath> = edges.keys().collect();
    let index_of: BTreeMap<&ModulePath, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let successors: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges
                .get(*n)
                .into_iter()
                .flatten()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let count = nodes.len();
    let mut index = vec![usize::MAX; count];
    let mut low = vec![0; count];
    let mut on_stack = vec![false; count];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut components = Vec::new();
    for root in 0..count {
        if index.get(root) != Some(&usize::MAX) {
            continue;
        }
        // (node, next successor position)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (node, ref mut position)) = work.last_mut() {
            if *position == 0 && index.get(node) == Some(&usize::MAX) {
                index[node] = next_index;
                low[node] = next_index;
                next_index += 1;
                stack.push(node);
                on_stack[node] = true;
            }
            if let Some(&next) = successors.get(node).and_then(|s| s.get(*position)) {
                *position += 1;
                if index.get(next) == Some(&usize::MAX) {
                    work.push((next, 0));
                } else if on_stack.get(next) == Some(&true) {
                    low[node] = low[node].min(index[next]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[node]);
            }
            if low[node] == index[node] {
                let mut component = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    component.push(member);
                    if member == node {
                        break;
                    }
                }
                if component.len() > 1 {
                    let mut members: Vec<ModulePath> = component
                        .into_iter()
                        .filter_map(|i| nodes.get(i).map(|n| (*n).clone()))
                        .collect();
                    members.sort();
                    components.push(members);
                }
            }
        }
    }
    components
}
