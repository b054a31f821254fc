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
