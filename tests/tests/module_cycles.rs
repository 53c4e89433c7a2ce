//! Modules point one way: no crate of the workspace has files, or sibling folders, that import
//! each other in a circle (`turnpost_tests::ModuleGraph`). A planted circle is found.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use turnpost_tests::ModuleGraph;

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

fn cycles_in(src: &Path) -> Vec<String> {
    let graph = ModuleGraph::read(src).unwrap();
    assert!(graph.files.len() > 3, "read only {:?}", graph.files);
    graph
        .file_cycles()
        .into_iter()
        .chain(graph.folder_cycles())
        .map(|cycle| cycle.to_string())
        .collect()
}

#[test]
fn no_crate_imports_in_a_circle() {
    let mut found = Vec::new();
    for name in ["shared", "server", "client", "tests"] {
        for cycle in cycles_in(&crate_src(name)) {
            found.push(format!("{name}/src: {cycle}"));
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Writes a small crate into a temporary folder.
fn planted(files: &[(&str, &str)]) -> tempfile_dir::Dir {
    let dir = tempfile_dir::Dir::new();
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

#[test]
fn a_planted_file_circle_is_found() {
    let dir = planted(&[
        ("lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("a.rs", "use crate::b::Thing;\npub struct Other;\n"),
        // Through a group and an inline path: b → c, c → a.
        (
            "b.rs",
            "use crate::{c::{self, Third}};\npub struct Thing;\n",
        ),
        (
            "c.rs",
            "pub struct Third;\nfn f() { let _ = crate::a::Other; }\n",
        ),
    ]);
    let graph = ModuleGraph::read(dir.path()).unwrap();
    let cycles = graph.file_cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(cycles[0].members.len(), 3, "{cycles:?}");
}

#[test]
fn a_circle_through_a_reexport_is_found_and_comments_tests_and_children_are_not_imports() {
    let dir = planted(&[
        ("lib.rs", "mod games;\nmod db;\n"),
        // games/mod.rs re-exports its child's type; declaring children is not an import.
        ("games/mod.rs", "mod status;\npub use status::GameStatus;\n"),
        (
            "games/status.rs",
            "use crate::db::Row;\npub enum GameStatus {}\n",
        ),
        // db names games::GameStatus, which is defined in games/status.rs.
        ("db.rs", "use crate::games::GameStatus;\npub struct Row;\n"),
    ]);
    let graph = ModuleGraph::read(dir.path()).unwrap();
    let files = graph.file_cycles();
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(
        files[0].members.iter().any(|m| m.ends_with("status.rs")),
        "{files:?}"
    );
    assert_eq!(
        graph.folder_cycles().len(),
        1,
        "{:?}",
        graph.folder_cycles()
    );

    let quiet = planted(&[
        ("lib.rs", "mod games;\nmod db;\n"),
        ("games/mod.rs", "mod status;\npub use status::GameStatus;\n"),
        ("games/status.rs", "pub enum GameStatus {}\n"),
        (
            "db.rs",
            "use crate::games::GameStatus;\n/// See [`crate::games`].\n// crate::games again\n\
             pub struct Row;\n#[cfg(test)]\nmod tests {\n    use crate::games::GameStatus;\n}\n",
        ),
        ("games/other.rs", "fn f() { let _ = \"crate::db::Row\"; }\n"),
    ]);
    let graph = ModuleGraph::read(quiet.path()).unwrap();
    assert!(graph.file_cycles().is_empty(), "{:?}", graph.file_cycles());
    assert!(
        graph.folder_cycles().is_empty(),
        "{:?}",
        graph.folder_cycles()
    );
}

#[test]
fn a_planted_folder_circle_is_found() {
    // No two files import each other, but routes/ uses web/ and web/ uses routes/.
    let dir = planted(&[
        ("lib.rs", "mod routes;\nmod web;\n"),
        ("routes/mod.rs", "mod a;\nmod b;\n"),
        ("routes/a.rs", "use crate::web::x::X;\npub struct A;\n"),
        ("routes/b.rs", "pub struct B;\n"),
        ("web/mod.rs", "pub mod x;\nmod y;\n"),
        ("web/x.rs", "pub struct X;\n"),
        ("web/y.rs", "use super::super::routes::b::B;\n"),
    ]);
    let graph = ModuleGraph::read(dir.path()).unwrap();
    assert!(graph.file_cycles().is_empty(), "{:?}", graph.file_cycles());
    let folders = graph.folder_cycles();
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert_eq!(folders[0].members, ["routes", "web"]);
    let text = folders[0].to_string();
    assert!(text.contains("routes/a.rs uses"), "{text}");
}

/// A temporary folder removed on drop (std only).
mod tempfile_dir {
    use std::path::{Path, PathBuf};

    pub struct Dir(PathBuf);

    impl Dir {
        pub fn new() -> Self {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let path = std::env::temp_dir().join(format!(
                "turnpost-module-graph-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}
