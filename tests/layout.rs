//! The shape of the code, checked so that it stays so (ARCHITECTURE.md):
//! no import circle between the crate's top-level modules.
//!
//! A module imports another when its code (comments and test modules left
//! out) names `crate::other`, in a `use` or in a path.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The top-level module a source file belongs to (`src/formats/ggf.rs`:
/// `formats`); `None` for the crate root and the binary.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// The code of a file without its comments and its `#[cfg(test)] mod
/// tests` (the crate's tests may import anything).
fn code(text: &str) -> String {
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

/// Module → the modules it imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new("src");
    let mut paths = Vec::new();
    files(src, &mut paths);
    let modules: BTreeSet<String> = paths.iter().filter_map(|p| module_of(src, p)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &paths {
        let Some(from) = module_of(src, path) else {
            continue;
        };
        let text = code(&std::fs::read_to_string(path).unwrap());
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name != from && modules.contains(&name) {
                graph.entry(from.clone()).or_default().insert(name);
            }
        }
    }
    graph
}

/// The modules reachable from `start` (itself only through a circle).
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&str> = graph
        .get(start)
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    while let Some(m) = todo.pop() {
        if seen.insert(m.to_string()) {
            todo.extend(graph.get(m).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}

#[test]
fn no_module_imports_one_that_imports_it() {
    let graph = imports();
    assert!(graph.len() > 8, "{graph:?}");
    let circles: Vec<String> = graph
        .keys()
        .filter(|m| reachable(&graph, m).contains(*m))
        .map(|m| {
            let back: Vec<&String> = graph[m]
                .iter()
                .filter(|n| reachable(&graph, n).contains(m))
                .collect();
            format!("{m} -> {back:?} -> ... -> {m}")
        })
        .collect();
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
    // the library's core knows no command line
    for m in ["game", "games", "replay", "registry", "record", "formats"] {
        assert!(!reachable(&graph, m).contains("cli"), "{m} reaches cli");
    }
}
