//! Read any bytes as a file of each format ragtag reads — `.npy`, `.npz`, Parquet, Arrow IPC,
//! JSON, JSON Lines — then draw the value read in every output form: the path a user's
//! (or an attacker's) file takes. The first byte of an input picks the format, the rest is
//! the file. Each read gets a small memory budget and a time limit (a watchdog sets the
//! session's cancel flag), as in the `eval` target. A panic inside a reader or a format
//! library comes back from the session's guard as an InternalError, which this target turns
//! back into a crash so libFuzzer keeps the input.
#![no_main]

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use ragtag::engine::exceptions::ExceptionClass;
use ragtag::render::Format;
use ragtag::session::{Collect, Output};
use ragtag::Session;

/// The time one read may take before it is interrupted.
const TIME_LIMIT: Duration = Duration::from_millis(500);

/// The memory one operation may ask for while fuzzing.
const BUDGET_BYTES: u64 = 64 << 20;

/// The formats: the file's extension and the call that reads it (`{}` is the path).
const READERS: &[(&str, &str)] = &[
    ("npy", "np.load('{}')"),
    ("npz", "np.load('{}')"),
    ("parquet", "ak.from_parquet('{}')"),
    ("arrow", "ragtag.read_arrow('{}')"),
    ("json", "ragtag.read_json('{}')"),
    ("jsonl", "ragtag.read_jsonl('{}')"),
];

/// The cancel flag of the session reading, and when its read started (in milliseconds
/// since the watchdog began; 0 when nothing runs).
struct Watchdog {
    flag: Mutex<Option<Arc<AtomicBool>>>,
    started: AtomicU64,
    epoch: Instant,
    dir: PathBuf,
}

fn watchdog() -> &'static Watchdog {
    static DOG: OnceLock<&'static Watchdog> = OnceLock::new();
    DOG.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ragtag-fuzz-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            flag: Mutex::new(None),
            started: AtomicU64::new(0),
            epoch: Instant::now(),
            dir,
        }));
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(20));
            let started = dog.started.load(Ordering::Relaxed);
            let now = dog.epoch.elapsed().as_millis() as u64 + 1;
            if started != 0 && now.saturating_sub(started) > TIME_LIMIT.as_millis() as u64 {
                if let Some(flag) = dog.flag.lock().unwrap().as_ref() {
                    flag.store(true, Ordering::Relaxed);
                }
            }
        });
        ragtag::engine::budget::set_limit(BUDGET_BYTES);
        dog
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, file)) = data.split_first() else {
        return;
    };
    let (ext, call) = READERS[pick as usize % READERS.len()];
    let dog = watchdog();
    let path = dog.dir.join(format!("input.{ext}"));
    std::fs::write(&path, file).expect("the scratch file is written");
    let src = format!("y = {}\ny", call.replace("{}", &path.display().to_string()));
    let mut session = Session::new();
    *dog.flag.lock().unwrap() = Some(session.cancel_flag());
    dog.started
        .store(dog.epoch.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
    let mut sink = Collect::default();
    let result = session.execute(&src, &mut sink);
    dog.started.store(0, Ordering::Relaxed);
    if let Err(e) = &result {
        if e.class == ExceptionClass::InternalError {
            panic!("{}", e.message);
        }
        let _ = session.render_error(e, ragtag::diagnostic::Style::Plain, 100);
    }
    for out in &sink.outputs {
        if let Output::Value(v) = out {
            for format in [Format::Table, Format::Tf, Format::Json, Format::Html] {
                session.format = format;
                let _ = session.render_value(v);
            }
        }
    }
});
