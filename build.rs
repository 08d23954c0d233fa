//! `--version` names the commit when built from a git checkout:
//! `gamerec 0.1.0 (abc1234 2026-11-30)`; elsewhere the version alone.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn main() {
    let version = env!("CARGO_PKG_VERSION");
    // only the package's own checkout: not a repository it is unpacked in
    let own = std::path::Path::new(".git").exists();
    let commit = own
        .then(|| git(&["rev-parse", "--short=10", "HEAD"]))
        .flatten();
    let date = own.then(|| git(&["log", "-1", "--format=%cs"])).flatten();
    let full = match (commit, date) {
        (Some(c), Some(d)) => format!("{version} ({c} {d})"),
        (Some(c), None) => format!("{version} ({c})"),
        _ => version.to_string(),
    };
    println!("cargo:rustc-env=GAMEREC_VERSION={full}");
    // a new commit or branch changes the version
    for path in ["HEAD", "refs/heads", "packed-refs"].iter().filter(|_| own) {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            if std::path::Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
