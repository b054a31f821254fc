//! The `ragtag` command: REPL, script runner, golden-test runner, Jupyter kernel.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ragtag::diagnostic::Style;
use ragtag::engine::ExceptionClass::SystemExit;
use ragtag::eval::{builtins::python::exception_args::exited, Sink};
use ragtag::render::{json, Format, Options};
use ragtag::Session;

#[cfg(feature = "jupyter")]
mod jupyter;
#[cfg(feature = "repl")]
mod repl;
mod stdout_sink;

use stdout_sink::StdoutSink;

/// Explore ragged, sparse and LoD tensors.
#[derive(Parser)]
#[command(name = "ragtag", version, about)]
struct Cli {
    /// Run this code instead of starting the REPL (statements separated by `;` or newlines).
    #[arg(short = 'c', value_name = "CODE", allow_hyphen_values = true)]
    code: Option<String>,
    /// How values are shown with -c.
    #[arg(long, value_enum, default_value = "table")]
    format: FormatArg,
    #[command(flatten)]
    style: StyleArgs,
    /// The most memory one operation may allocate, e.g. `2GiB`, `512MB` or bytes (default:
    /// half of this machine's memory). Larger requests fail with ResourceExhaustedError.
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_memory)]
    max_memory: Option<u64>,
    #[command(subcommand)]
    command: Option<Command>,
}

fn parse_memory(text: &str) -> Result<u64, String> {
    ragtag::engine::budget::parse_size(text)
}

#[derive(Subcommand)]
enum Command {
    /// Run a script (`-` reads standard input).
    Run {
        /// The script.
        file: String,
        /// How displayed values are shown.
        #[arg(long, value_enum, default_value = "table")]
        format: FormatArg,
        #[command(flatten)]
        style: StyleArgs,
    },
    /// Replay golden transcripts (`*.rtt`, Markdown ```ragtag blocks, notebooks) and diff.
    ///
    /// Each transcript runs in a process of its own, so an input that crashes or hangs fails
    /// its transcript and the run goes on. A block showing a tensor that differs is also
    /// reported in tensor words (dtype, row partition, values). See also `ragtag review`.
    Test(TestArgs),
    /// Review the pending changes `ragtag test --bless=new` wrote (`*.rtt.new`), block by
    /// block: a accept, r reject, s skip, A/R accept/reject all remaining, t toggle diff and
    /// whole block, d external diff (RAGTAG_DIFF_TOOL), q quit; one answer a line.
    Review {
        /// Accept without asking: every pending block of FILE, or the one whose `>>>` is on
        /// LINE (repeatable).
        #[arg(long, value_name = "FILE[:LINE]")]
        accept: Vec<String>,
        /// Reject without asking, as --accept (repeatable).
        #[arg(long, value_name = "FILE[:LINE]")]
        reject: Vec<String>,
        /// Transcripts, pending files, or directories searched for `*.rtt.new` (default: .).
        paths: Vec<std::path::PathBuf>,
    },
    /// The Jupyter kernel: install its kernelspec, or run it.
    #[cfg(feature = "jupyter")]
    Jupyter {
        #[command(subcommand)]
        action: JupyterAction,
    },
}

/// The arguments of `ragtag test`.
#[derive(clap::Args)]
struct TestArgs {
    /// Rewrite the expected outputs that differ (inputs, comments, directives and wildcards
    /// stay as they are); `--bless=new` writes them to `NAME.rtt.new` beside each transcript
    /// instead. When the environment variable CI is set, `--bless` means `--bless=new`.
    #[arg(
        long,
        value_enum,
        value_name = "WHERE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "all"
    )]
    bless: Option<BlessArg>,
    /// How many transcripts run at once (default: the number of cores).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    jobs: Option<usize>,
    /// Compare only the blocks whose name `FILE::LINE` (LINE: the line of the block's
    /// `>>>`) matches this regex; transcripts with no such block are not run.
    #[arg(long, value_name = "REGEX")]
    filter: Option<String>,
    /// Leave out the blocks whose name `FILE::LINE` matches this regex (they still run, for
    /// the blocks after them, but are not compared).
    #[arg(long, value_name = "REGEX")]
    filter_out: Option<String>,
    /// Run the I-th of N shares of the transcripts (`--shard 2/3`), so N machines share a
    /// run.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<(usize, usize)>,
    /// Colour the diffs: always or never (default: on a terminal without NO_COLOR).
    #[arg(long, value_enum, value_name = "WHEN")]
    color: Option<When>,
    /// Write a JUnit XML report to FILE, one testcase per `>>>` block.
    #[arg(long, value_name = "FILE")]
    junit: Option<std::path::PathBuf>,
    /// Seconds an input may run before it is interrupted (and, if it does not stop,
    /// killed); 0 means no limit.
    #[arg(long, value_name = "SECS", default_value_t = ragtag::golden::DEFAULT_TIMEOUT.as_secs_f64())]
    timeout: f64,
    /// Run only the transcripts that failed last time (all when none did); each run keeps
    /// its failures in `.ragtag/last-failed` in the working directory.
    #[arg(long)]
    failed: bool,
    /// Convert FILE.rtt to a notebook FILE.ipynb, or FILE.ipynb to a transcript FILE.rtt,
    /// and run nothing.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["bless", "paths", "one"])]
    convert: Option<std::path::PathBuf>,
    /// Replay this one transcript in this process and write JSON lines of per-input results
    /// (what `ragtag test` runs in each child process).
    #[arg(long, hide = true, value_name = "FILE", conflicts_with_all = ["bless", "paths"])]
    one: Option<std::path::PathBuf>,
    /// Transcripts (`.rtt`, Markdown with ```ragtag blocks, `.ipynb` notebooks), or
    /// directories searched recursively for `*.rtt` and Markdown with ragtag blocks.
    #[arg(required_unless_present_any = ["one", "convert"], value_name = "PATHS")]
    paths: Vec<std::path::PathBuf>,
}

#[cfg(feature = "jupyter")]
#[derive(Subcommand)]
enum JupyterAction {
    /// Install the kernelspec so Jupyter lists "ragtag" (default: for this user).
    Install {
        /// Install for this user (~/.local/share/jupyter on Linux).
        #[arg(long, conflicts_with = "prefix")]
        user: bool,
        /// Install under DIR/share/jupyter (e.g. a virtualenv's sys.prefix).
        #[arg(long, value_name = "DIR")]
        prefix: Option<std::path::PathBuf>,
    },
    /// Remove the kernelspec.
    Uninstall {
        /// Remove the user's kernelspec (the default).
        #[arg(long, conflicts_with = "prefix")]
        user: bool,
        /// Remove the kernelspec under DIR/share/jupyter.
        #[arg(long, value_name = "DIR")]
        prefix: Option<std::path::PathBuf>,
    },
    /// Run the kernel (Jupyter starts this with a connection file).
    Kernel {
        /// The connection file Jupyter wrote.
        #[arg(short = 'f', long = "connection-file", value_name = "FILE")]
        connection_file: std::path::PathBuf,
    },
}

#[cfg(feature = "jupyter")]
fn run_jupyter(action: JupyterAction) -> ExitCode {
    match action {
        JupyterAction::Install { prefix, .. } => match jupyter::install(prefix.as_deref()) {
            Ok(dir) => {
                println!("installed the ragtag kernelspec in {}", dir.display());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("ragtag: {e}");
                ExitCode::FAILURE
            }
        },
        JupyterAction::Uninstall { prefix, .. } => match jupyter::uninstall(prefix.as_deref()) {
            Ok(Some(dir)) => {
                println!("removed {}", dir.display());
                ExitCode::SUCCESS
            }
            Ok(None) => {
                println!("the ragtag kernelspec was not installed there");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("ragtag: {e}");
                ExitCode::FAILURE
            }
        },
        JupyterAction::Kernel { connection_file } => jupyter::run_kernel(&connection_file),
    }
}

/// Table limits and style (the same settings as `:set`).
#[derive(clap::Args, Clone, Default)]
struct StyleArgs {
    /// Width tables fit into, in columns (default: the terminal's, else 100).
    #[arg(long, value_name = "N")]
    width: Option<usize>,
    /// Most rows a table shows before eliding the middle.
    #[arg(long, value_name = "N")]
    rows: Option<usize>,
    /// Most value columns a table shows before eliding the middle.
    #[arg(long, value_name = "N")]
    cols: Option<usize>,
    /// Box drawing: unicode or ascii (default: unicode on a terminal without NO_COLOR).
    #[arg(long, value_enum)]
    boxes: Option<Boxes>,
    /// Colour: always or never (default: on a terminal without NO_COLOR).
    #[arg(long, value_enum)]
    color: Option<When>,
}

fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{text}`: write I/N with 1 <= I <= N, e.g. 2/3");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    match (i.trim().parse::<usize>(), n.trim().parse::<usize>()) {
        (Ok(i), Ok(n)) if 1 <= i && i <= n => Ok((i, n)),
        _ => Err(bad()),
    }
}

/// Where `--bless` writes.
#[derive(Clone, Copy, clap::ValueEnum)]
enum BlessArg {
    /// Rewrite each transcript in place.
    All,
    /// Rewrite the transcripts that failed (the same as `all`: a passing one is never
    /// rewritten).
    Failed,
    /// Write `NAME.rtt.new` beside each failing transcript and leave it as it is.
    New,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Boxes {
    Unicode,
    Ascii,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum When {
    Always,
    Never,
}

impl StyleArgs {
    /// Options for output to standard output, with these settings applied.
    fn options(&self) -> Options {
        let mut o = Options::for_output(std::io::stdout().is_terminal());
        if let Some(w) = self.width.or_else(terminal_width) {
            o.width = w.max(20);
        }
        if let Some(r) = self.rows {
            o.max_rows = r.max(2);
        }
        if let Some(c) = self.cols {
            o.max_cols = c.max(2);
        }
        if let Some(b) = self.boxes {
            o.unicode = matches!(b, Boxes::Unicode);
        }
        if let Some(c) = self.color {
            o.color = matches!(c, When::Always);
        }
        o
    }
}

/// The terminal's width from `COLUMNS`, when the shell exports it.
fn terminal_width() -> Option<usize> {
    std::env::var("COLUMNS").ok()?.parse().ok()
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Table,
    Tf,
    Json,
    Html,
    Svg,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Table => Format::Table,
            FormatArg::Tf => Format::Tf,
            FormatArg::Json => Format::Json,
            FormatArg::Html => Format::Html,
            FormatArg::Svg => Format::Svg,
        }
    }
}

/// Runs a whole script; reports an uncaught error and returns the exit status.
fn run_script(src: &str, name: &str, format: Format, options: Options) -> ExitCode {
    let mut session = Session::new();
    session.format = format;
    let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    session.options = options;
    let mut sink = StdoutSink {
        format,
        options: session.options,
    };
    // Meta-command, magic and shell lines run where they stand among the code.
    match ragtag::command::cell::run_cell(&mut session, src, Some(name), &mut sink) {
        Ok(ragtag::command::Outcome::Text(text)) => {
            if !text.is_empty() {
                sink.print(&text);
            }
            ExitCode::SUCCESS
        }
        Ok(ragtag::command::Outcome::Quit) => ExitCode::SUCCESS,
        Err(e) if e.class == SystemExit => ExitCode::from(exited(&e)),
        Err(e) => {
            if format == Format::Json {
                let at = session.error_location(&e);
                let at = at.as_ref().map(|(n, l, c)| (n.as_str(), *l, *c));
                println!("{}", json::error_json_at(e.class_name(), &e.message, at));
            }
            let style = if color { Style::Fancy } else { Style::Plain };
            eprint!("{}", session.render_error(&e, style, 100));
            ExitCode::FAILURE
        }
    }
}

/// `ragtag test`: each transcript replayed in a child process of this binary, one report
/// per failing transcript as it finishes, then `N passed, N failed`. With `--one FILE`, the
/// child's side: replay FILE here and write its results as JSON lines.
fn run_tests(args: TestArgs) -> ExitCode {
    use ragtag::golden::{Bless, RunOptions, Selection};
    let TestArgs {
        bless,
        jobs,
        filter,
        filter_out,
        shard,
        color,
        junit,
        timeout,
        failed,
        convert,
        one,
        mut paths,
    } = args;
    let timeout = match std::time::Duration::try_from_secs_f64(timeout) {
        Ok(d) if d.is_zero() => None,
        Ok(d) => Some(d),
        Err(_) => {
            eprintln!("ragtag: --timeout must be a number of seconds (0 for no limit)");
            return ExitCode::FAILURE;
        }
    };
    if let Some(file) = convert {
        return ragtag::golden::notebook::run_convert(&file);
    }
    if let Some(file) = one {
        return match ragtag::golden::isolate::run_child(&file, timeout, &mut std::io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ragtag: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let regex = |flag: &str, r: Option<String>| match r.map(|r| regex::Regex::new(&r)) {
        None => Ok(None),
        Some(Ok(r)) => Ok(Some(r)),
        Some(Err(e)) => Err(format!("{flag}: {e}")),
    };
    let selection = match (regex("--filter", filter), regex("--filter-out", filter_out)) {
        (Ok(filter), Ok(filter_out)) => Selection { filter, filter_out },
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("ragtag: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut bless = match bless {
        None => Bless::No,
        Some(BlessArg::All | BlessArg::Failed) => Bless::All,
        Some(BlessArg::New) => Bless::New,
    };
    if bless == Bless::All && in_ci() {
        eprintln!(
            "ragtag: CI is set, so --bless writes NAME.rtt.new files and leaves the \
             transcripts as they are"
        );
        bless = Bless::New;
    }
    let options = RunOptions {
        bless,
        timeout,
        jobs: jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        selection,
        shard,
    };
    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("ragtag: cannot find this program to run transcripts with: {e}");
            return ExitCode::FAILURE;
        }
    };
    let colour = match color {
        Some(When::Always) => true,
        Some(When::Never) => false,
        None => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let mut out = std::io::stdout().lock();
    let here = std::path::PathBuf::from(".");
    if failed {
        match ragtag::golden::last_failed::select(&here, &paths) {
            Ok((files, line)) => {
                let _ = writeln!(out, "{line}");
                if !files.is_empty() {
                    paths = files;
                }
            }
            Err(e) => {
                eprintln!("ragtag: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let run = ragtag::golden::run_paths_isolated(&exe, &paths, &options, |r| {
        if matches!(r.status, ragtag::golden::Status::Blessed) {
            let _ = writeln!(out, "blessed {}", r.path.display());
        }
        let report = r.report();
        if colour {
            let _ = write!(out, "{}", ragtag::golden::colour::colourize(&report));
        } else {
            let _ = write!(out, "{report}");
        }
        // A pending file left from an earlier run whose transcript passes now.
        let pending = ragtag::golden::pending_path(&r.path);
        if r.ok() && pending.is_file() {
            if bless != Bless::No && std::fs::remove_file(&pending).is_ok() {
                let _ = writeln!(out, "removed stale {}", pending.display());
            } else {
                let _ = writeln!(
                    out,
                    "stale {} (its transcript passes now; --bless removes it)",
                    pending.display()
                );
            }
        }
        let _ = out.flush();
    });
    let summary = match run {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ragtag: {e}");
            return ExitCode::FAILURE;
        }
    };
    let _ = writeln!(out, "{}", summary.line());
    // Best effort: a list that cannot be written only makes the next `--failed` run more.
    let _ = ragtag::golden::last_failed::save(&here, &summary);
    if let Some(file) = junit {
        if let Err(e) = ragtag::golden::write_atomic(&file, &ragtag::golden::junit_xml(&summary)) {
            eprintln!("ragtag: cannot write {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
    }
    if summary.failed() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// True when the environment says this runs in CI (`CI` set to anything but empty,
/// `0` or `false`, as GitHub Actions, GitLab and most others set it).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "False"))
}

/// mimalloc keeps freed large blocks for reuse: a result of tens of megabytes is not
/// page-faulted into being by every operation, as with glibc, which returns each block over
/// 32 MiB to the system at once (`cargo bench --bench engine` shows the difference).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(bytes) = cli.max_memory {
        ragtag::engine::budget::set_limit(bytes);
        // Transcripts replay under a fixed limit of their own unless this one is given.
        ragtag::golden::run::set_memory_limit(bytes);
    }
    if let Some(code) = cli.code {
        return run_script(&code, "<-c>", cli.format.into(), cli.style.options());
    }
    match cli.command {
        Some(Command::Run {
            file,
            format,
            style,
        }) => {
            let (src, name) = if file == "-" {
                let mut s = String::new();
                if let Err(e) = std::io::stdin().read_to_string(&mut s) {
                    eprintln!("ragtag: cannot read standard input: {e}");
                    return ExitCode::FAILURE;
                }
                (s, "<stdin>".to_string())
            } else {
                match std::fs::read_to_string(&file) {
                    Ok(s) => (s, file.clone()),
                    Err(e) => {
                        eprintln!("ragtag: cannot read {file}: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            };
            run_script(&src, &name, format.into(), style.options())
        }
        #[cfg(feature = "jupyter")]
        Some(Command::Jupyter { action }) => run_jupyter(action),
        Some(Command::Test(args)) => run_tests(args),
        Some(Command::Review {
            accept,
            reject,
            paths,
        }) => ragtag::golden::review::run(&accept, &reject, paths),
        None => {
            if !std::io::stdin().is_terminal() {
                let mut s = String::new();
                if std::io::stdin().read_to_string(&mut s).is_err() {
                    return ExitCode::FAILURE;
                }
                return run_script(&s, "<stdin>", Format::Table, cli.style.options());
            }
            #[cfg(feature = "repl")]
            {
                repl::run(cli.style.options(), cli.style.width.or_else(terminal_width))
            }
            #[cfg(not(feature = "repl"))]
            {
                eprintln!("ragtag was built without the REPL; use `ragtag run FILE`");
                ExitCode::FAILURE
            }
        }
    }
}
