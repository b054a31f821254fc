//! An interrupt stops a single long operation part-way, not only between statements: each
//! statement below is one operation over 10^8 elements (hundreds of megabytes, far longer
//! than the moment before the interrupt comes). The interrupted
//! statement assigns nothing, and the session goes on. (How quickly it stops is measured by
//! `cargo run --release --example interrupt_latency`, not here.)
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use std::sync::atomic::Ordering;
use std::time::Duration;

use ragtag::engine::exceptions::ExceptionClass;
use ragtag::session::Collect;
use ragtag::Session;

fn interrupted_after(session: &mut Session, src: &str, delay: Duration) -> Option<ExceptionClass> {
    let flag = session.cancel_flag();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(delay);
        flag.store(true, Ordering::Relaxed);
    });
    let result = session.execute(src, &mut Collect::default());
    stopper.join().unwrap();
    result.err().map(|e| e.class)
}

#[test]
fn one_long_operation_stops_part_way_and_assigns_nothing() {
    let mut session = Session::new();
    session
        .execute("x = tf.range(10**8)\nkept = 1", &mut Collect::default())
        .unwrap();
    for src in [
        "y = x * 3",
        "y = tf.cast(x, tf.float64)",
        "y = tf.reduce_sum(x)",
        "y = tf.random.uniform([10**8])",
        "y = tf.ones([10**8]) + 1",
        "y = tf.reduce_max(x, axis=0)",
        "y = tf.range(10**8)",
    ] {
        assert_eq!(
            interrupted_after(&mut session, src, Duration::from_millis(5)),
            Some(ExceptionClass::KeyboardInterrupt),
            "{src}"
        );
        assert!(session.get("y").is_none(), "{src} assigned y");
    }
    assert!(session.get("kept").is_some());
    // The session goes on.
    session
        .execute("z = tf.reduce_sum(x[:10])", &mut Collect::default())
        .unwrap();
    assert!(session.get("z").is_some());
}

/// A read of a file of 10^8 values stops part-way when interrupted, soon after the flag is
/// set, and assigns nothing: JSON, JSON Lines, Parquet and Arrow IPC.
#[test]
fn a_large_read_stops_part_way_and_assigns_nothing() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("ragtag-interrupt-reads-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // JSON: one array of 10^8 numbers; JSON Lines: 10^6 lines of 100.
    let row = format!("[{}]", vec!["7"; 100].join(","));
    let mut json = std::io::BufWriter::new(std::fs::File::create(dir.join("big.json")).unwrap());
    let mut jsonl = std::io::BufWriter::new(std::fs::File::create(dir.join("big.jsonl")).unwrap());
    json.write_all(b"[").unwrap();
    for i in 0..1_000_000 {
        if i > 0 {
            json.write_all(b",").unwrap();
        }
        json.write_all(&row.as_bytes()[1..row.len() - 1]).unwrap();
        jsonl.write_all(row.as_bytes()).unwrap();
        jsonl.write_all(b"\n").unwrap();
    }
    json.write_all(b"]").unwrap();
    drop((json, jsonl));
    let mut session = Session::new();
    let d = dir.display().to_string();
    let setup = format!(
        "x = tf.RaggedTensor.from_uniform_row_length(tf.range(10**8), 100)\n\
         ak.to_parquet(x, '{d}/big.parquet')\nragtag.write_arrow(x, '{d}/big.arrow')\ndel x\nkept = 1"
    );
    session.execute(&setup, &mut Collect::default()).unwrap();
    for src in [
        format!("y = ragtag.read_json('{d}/big.json')"),
        format!("y = ragtag.read_jsonl('{d}/big.jsonl')"),
        format!("y = ak.from_parquet('{d}/big.parquet')"),
        format!("y = ragtag.read_arrow('{d}/big.arrow')"),
    ] {
        let flag = session.cancel_flag();
        let set_at = std::sync::Arc::new(std::sync::Mutex::new(None));
        let stopper = {
            let set_at = set_at.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                *set_at.lock().unwrap() = Some(std::time::Instant::now());
                flag.store(true, Ordering::Relaxed);
            })
        };
        let result = session.execute(&src, &mut Collect::default());
        let stopped = std::time::Instant::now();
        stopper.join().unwrap();
        let latency = stopped - set_at.lock().unwrap().expect("the flag was set");
        eprintln!("{src}: stopped {latency:?} after the interrupt");
        assert_eq!(
            result.err().map(|e| e.class),
            Some(ExceptionClass::KeyboardInterrupt),
            "{src}"
        );
        assert!(session.get("y").is_none(), "{src} assigned y");
        // Generous for a loaded machine; `cargo run --release --example interrupt_latency`
        // measures the latency itself.
        assert!(latency < Duration::from_secs(2), "{src}: {latency:?}");
    }
    assert!(session.get("kept").is_some());
    let _ = std::fs::remove_dir_all(&dir);
}
