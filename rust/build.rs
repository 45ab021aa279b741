//! Generates the lower-casing and whole-word tables from the Python interpreter the extension
//! is built for, so the compiled core lower-cases exactly like that interpreter's `str.lower`
//! (its Unicode version, its final-sigma rule) and matches words like its `re`
//! (`str.isalnum` edges, `re.IGNORECASE` literals), not like Rust's own Unicode tables.
use std::env;
use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=lower_tables.py");
    println!("cargo:rerun-if-changed=word_tables.py");
    println!("cargo:rerun-if-changed=char_tables.py");
    println!("cargo:rerun-if-env-changed=PYO3_PYTHON");
    println!("cargo:rerun-if-env-changed=PYTHON_SYS_EXECUTABLE");
    // maturin sets both to the interpreter it builds for; plain cargo uses the one on PATH.
    let python = env::var("PYO3_PYTHON")
        .or_else(|_| env::var("PYTHON_SYS_EXECUTABLE"))
        .unwrap_or_else(|_| String::from(if cfg!(windows) { "python" } else { "python3" }));
    let dir = match env::var("OUT_DIR") {
        Ok(dir) => PathBuf::from(dir),
        Err(error) => fail(&format!("OUT_DIR is not set: {error}")),
    };
    generate(&python, "lower_tables.py", &dir.join("lower_tables.rs"));
    generate(&python, "char_tables.py", &dir.join("char_tables.rs"));
    generate(&python, "word_tables.py", &dir.join("word_tables.rs"));
}

/// Run one table script with `python`, writing Rust source to `out`.
fn generate(python: &str, script: &str, out: &PathBuf) {
    let status = Command::new(python).arg(script).arg(out).status();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => fail(&format!("{python} {script} exited with {status}")),
        Err(error) => fail(&format!(
            "cannot run {python} ({error}); set PYO3_PYTHON to the Python to build for"
        )),
    }
    if fs::metadata(out).is_err() {
        fail(&format!("{script} wrote no table"));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("tracegrade-core build: {message}");
    std::process::exit(1)
}
