//! ragtag's integration tests, as one crate so that the library is linked into one test
//! binary rather than into one per file (Cargo.toml: `autotests = false` and one `[[test]]`).
//! Each module below is the file of the same name under tests/, and its tests keep that
//! name as their path: `cargo test --test integration svg::` runs the pictures' tests alone.
//!
//! All of them share one process, so none may change what the others see: the working
//! directory, the environment, the process-wide memory limit (a session's own limit is per
//! thread). A test that needs its own working directory runs in a child process
//! (builtin_examples).

// Helpers shared by several modules.
#[cfg(feature = "jupyter")]
mod kernel_common;
mod python_common;
mod render_common;

mod architecture;
mod array_ops;
mod builtin_examples;
mod cli_test_runner;
mod completion;
mod conformance;
mod error_catalogue;
mod files_never_lost;
mod formats_json;
mod formats_numpy;
mod formats_parquet;
mod golden;
mod golden_features;
mod golden_review;
mod golden_team;
mod golden_tensor_compare;
mod guide_notebook;
mod interrupts;
mod jupyter_bad_messages;
mod jupyter_draw;
mod jupyter_kernel;
mod jupyter_parent;
mod magics;
mod matmul;
mod paddle_cases;
mod parser_limits;
mod properties;
mod python_cases;
mod render_explain;
mod render_html;
mod render_json;
mod render_kinds;
mod render_readme;
mod render_table;
mod render_tf;
mod repl_tmux;
mod run_errors;
mod sparse_lod;
mod sparse_properties;
mod svg;
mod svg_chromium;
mod system_exit;
