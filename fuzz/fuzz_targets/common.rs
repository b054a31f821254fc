//! What the `eval` and `files` targets share: each input runs in a fresh session under a
//! small memory budget and a time limit (a watchdog sets the session's cancel flag), so the
//! fuzzer explores errors instead of waiting on big, slow, valid inputs; then every value
//! shown is drawn in every output form and every error report rendered. A panic in
//! evaluation is caught by the session's guard and comes back as an InternalError, which is
//! turned back into a crash so libFuzzer records the input.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use ragtag::engine::exceptions::ExceptionClass;
use ragtag::render::Format;
use ragtag::session::{Collect, Output};
use ragtag::Session;

/// The time one input may evaluate before it is interrupted.
const TIME_LIMIT: Duration = Duration::from_millis(500);

/// Values with more elements than this are not drawn as JSON: the JSON form writes every
/// element and is not interrupted, so a value of ten million elements (well within the
/// budget) would take seconds per input and pass for a hang. The other forms elide.
const JSON_MAX_ELEMENTS: usize = 1 << 20;

/// The memory one operation may ask for while fuzzing.
const BUDGET_BYTES: u64 = 64 << 20;

/// The cancel flag of the session being evaluated, and when its input started (in
/// milliseconds since the watchdog began; 0 when nothing runs).
struct Watchdog {
    flag: Mutex<Option<Arc<AtomicBool>>>,
    started: AtomicU64,
    epoch: Instant,
}

fn watchdog() -> &'static Watchdog {
    static DOG: OnceLock<&'static Watchdog> = OnceLock::new();
    DOG.get_or_init(|| {
        let dog: &'static Watchdog = Box::leak(Box::new(Watchdog {
            flag: Mutex::new(None),
            started: AtomicU64::new(0),
            epoch: Instant::now(),
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

/// Runs `src` in a fresh session under the watchdog, then draws what it showed.
pub fn run_and_draw(src: &str) {
    let dog = watchdog();
    let mut session = Session::new();
    *dog.flag.lock().unwrap() = Some(session.cancel_flag());
    dog.started
        .store(dog.epoch.elapsed().as_millis() as u64 + 1, Ordering::Relaxed);
    let mut sink = Collect::default();
    let result = session.execute(src, &mut sink);
    dog.started.store(0, Ordering::Relaxed);
    if let Err(e) = &result {
        if e.class == ExceptionClass::InternalError {
            panic!("{}", e.message);
        }
        let _ = session.render_error(e, ragtag::diagnostic::Style::Plain, 100);
    }
    for out in &sink.outputs {
        if let Output::Value(v) = out {
            let elements = v
                .as_dense()
                .or_else(|| v.as_ragged().map(|r| r.flat_values()))
                .map_or(0, |t| t.size());
            for format in [Format::Table, Format::Tf, Format::Json, Format::Html] {
                if format == Format::Json && elements > JSON_MAX_ELEMENTS {
                    continue;
                }
                session.format = format;
                let _ = session.render_value(v);
            }
        }
    }
}
