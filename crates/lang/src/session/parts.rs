//! A cell run in parts (code between meta-command lines, counted as one input) and code
//! run many times over for `%timeit`, with nothing displayed and one source for every run.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::{Event, Relay, Session};
use crate::diagnostic::Error;
use crate::eval::{Interp, Sink};
use ragtag_engine::guard;

/// IPython's `%timeit` picks the loop count 1, 10, 100 … whose run first takes this long.
const AUTORANGE_SECS: f64 = 0.2;
/// The largest loop count the automatic choice tries (IPython's: 10 ** 9).
const MAX_LOOPS: usize = 1_000_000_000;

/// The sink of timed runs: what they print is shown, the values they display are not.
struct Quiet<'a>(Relay<'a>);

impl Sink for Quiet<'_> {
    fn display(&mut self, _value: &crate::value::Value) {}
    fn print(&mut self, text: &str) {
        self.0.print(text);
    }
    fn print_stderr(&mut self, text: &str) {
        self.0.print_stderr(text);
    }
    fn render_options(&self) -> crate::render::Options {
        self.0.render_options()
    }
    fn input(&mut self, prompt: &str) -> Result<Option<String>, Error> {
        self.0.input(prompt)
    }
}

impl Session {
    /// Begins a cell whose code and meta-commands run as separate inputs: it is counted
    /// once, and until [`Session::end_cell`] every input it runs is named `<cell N>` with
    /// this cell's number N (returned).
    pub fn begin_cell(&mut self) -> usize {
        self.counter += 1;
        self.held = true;
        self.counter
    }

    /// Ends the cell begun by [`Session::begin_cell`].
    pub fn end_cell(&mut self) {
        self.held = false;
    }

    /// Runs `src` `number` times in each of `repeat` runs, displaying nothing, and returns
    /// the loop count and each run's seconds. Without `number` the count is IPython's: the
    /// first of 1, 10, 100 … whose run takes 0.2 s (that run is not counted). The names it
    /// assigns stay; an error or an interrupt stops it.
    pub fn time_loops(
        &mut self,
        src: &str,
        number: Option<usize>,
        repeat: usize,
        sink: &mut dyn Sink,
    ) -> Result<(usize, Vec<f64>), Error> {
        self.counter += usize::from(!self.held);
        let id = self.sources.len();
        self.sources
            .push((format!("<cell {}>", self.counter), src.to_string()));
        self.failed.push(true);
        self.cancel.store(false, Ordering::Relaxed);
        let cancel = self.cancel.clone();
        let memory_limit = self.memory_limit;
        let mut globals = std::mem::take(&mut self.globals);
        let text: Arc<str> = Arc::from(src);
        let (shows_none, options) = (sink.shows_none(), sink.render_options());
        let dead = std::mem::take(&mut self.shown);
        let random = self.random.clone();
        let outcome = guard::run_owned(
            move |events: &guard::Events<Event>| {
                drop(dead);
                crate::eval::rng::install(random);
                ragtag_engine::interrupt::watch(Some(cancel.clone()));
                ragtag_engine::budget::set_thread_limit(memory_limit);
                let snapshot = globals.clone();
                let mut quiet = Quiet(Relay {
                    events,
                    shows_none,
                    options,
                });
                let mut added = Vec::new();
                let run = guard::catch(|| {
                    let program =
                        ragtag_syntax::parse_interruptible(&text, &cancel).map_err(Error::from)?;
                    let mut loops = |n: usize| -> Result<f64, Error> {
                        let start = Instant::now();
                        for _ in 0..n {
                            let mut interp = Interp::new(&mut globals, &mut quiet, &cancel, id)
                                .with_sources(std::mem::take(&mut added));
                            let run = interp.run(&program);
                            added = interp.take_sources();
                            run?;
                        }
                        Ok(start.elapsed().as_secs_f64())
                    };
                    let number = match number {
                        Some(n) => n,
                        None => {
                            let mut n = 1;
                            while loops(n)? < AUTORANGE_SECS && n < MAX_LOOPS {
                                n *= 10;
                            }
                            n
                        }
                    };
                    let mut runs = Vec::new();
                    for _ in 0..repeat {
                        runs.push(loops(number)?);
                    }
                    Ok((number, runs))
                });
                if run.is_err() {
                    globals = snapshot;
                }
                (globals, added, run)
            },
            |event| {
                event.deliver(sink);
            },
        );
        self.settle(id, src, outcome)
    }
}
