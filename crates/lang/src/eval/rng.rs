//! The random state of a session: TensorFlow's global seed with its per-op seed sequence and
//! kernel cache, NumPy's global `RandomState` and its `Generator`s. The session owns one and
//! installs it on the thread that evaluates each input; builtins reach it through [`with`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use ragtag_engine::random::mt19937::Mt19937;
use ragtag_engine::random::pcg64::Pcg64;
use ragtag_engine::random::philox::Philox;
use ragtag_engine::random::{os_entropy, Pcg};

/// The seed transcripts use, so that `ragtag test` output does not vary between runs.
pub const TRANSCRIPT_SEED: u64 = 0x5EED_0F7A_67A6;

/// TensorFlow's `DEFAULT_GRAPH_SEED`: the global seed an op seed pairs with when no global
/// seed was set.
pub const DEFAULT_GRAPH_SEED: i64 = 87_654_321;
/// `_MAXINT32` of random_seed.py: seeds are taken modulo it.
pub const MAXINT32: i64 = (1 << 31) - 1;

/// A session's random state.
#[derive(Debug)]
pub struct RandomState {
    /// `tf.random.set_seed`'s seed.
    pub global_seed: Option<i64>,
    /// The eager context's `random.Random(global_seed)`, the source of op seeds.
    op_seeds: Mt19937,
    /// The cached kernels' generators, by op, dtype and seed pair (TensorFlow reuses one
    /// kernel per op and attributes, so repeated calls continue its sequence).
    kernels: HashMap<(&'static str, String, i64, i64), Philox>,
    /// Where seeds for unseeded ops come from.
    entropy: Pcg,
    /// NumPy's global `RandomState` (`np.random.seed`, `rand`, `randn`, ...).
    pub numpy: Mt19937,
    /// The `np.random.Generator`s made so far, by id.
    pub generators: Vec<Pcg64>,
    /// Python's `random` module's generator.
    pub python: Mt19937,
    /// Its `gauss_next`: the second value of the last Box–Muller pair.
    pub python_gauss: Option<f64>,
    /// NumPy's print options (`np.set_printoptions`), session state like the rest.
    pub print: crate::render::numpy::PrintOptions,
}

impl RandomState {
    /// A state whose unseeded draws come from `seed` (a fixed seed for transcripts, fresh
    /// entropy for sessions).
    pub fn new(seed: u64) -> Self {
        let mut entropy = Pcg::new(seed);
        let words: Vec<u32> = (0..4).map(|_| entropy.next_u32()).collect();
        RandomState {
            global_seed: None,
            op_seeds: Mt19937::from_u32(0),
            kernels: HashMap::new(),
            numpy: Mt19937::from_key(&words),
            generators: Vec::new(),
            python: Mt19937::from_key(&words[2..]),
            python_gauss: None,
            entropy,
            print: Default::default(),
        }
    }

    /// A state seeded from the operating system.
    pub fn fresh() -> Self {
        RandomState::new(os_entropy())
    }

    /// 64 fresh bits for an unseeded op.
    pub fn entropy_u64(&mut self) -> u64 {
        (self.entropy.next_u32() as u64) << 32 | self.entropy.next_u32() as u64
    }

    /// `tf.random.set_seed(seed)`: the op-seed sequence restarts and the kernel cache is
    /// cleared, as `context._set_global_seed` does.
    pub fn set_global_seed(&mut self, seed: Option<i64>) {
        self.global_seed = seed;
        if let Some(s) = seed {
            self.op_seeds = Mt19937::from_key(&Mt19937::key_of(s.unsigned_abs() as u128));
        }
        self.kernels.clear();
    }

    /// `random_seed.get_seed(op_seed)`: the (seed, seed2) pair an op runs with; (0, 0)
    /// means "unseeded".
    pub fn get_seed(&mut self, op_seed: Option<i64>) -> (i64, i64) {
        let seeds = match (self.global_seed, op_seed) {
            (Some(g), op) => {
                // `context.internal_operation_seed()`: randint(0, _MAXINT32).
                let op =
                    op.unwrap_or_else(|| self.op_seeds.py_randbelow(MAXINT32 as u64 + 1) as i64);
                (g.rem_euclid(MAXINT32), op.rem_euclid(MAXINT32))
            }
            (None, Some(op)) => (DEFAULT_GRAPH_SEED, op.rem_euclid(MAXINT32)),
            (None, None) => return (0, 0),
        };
        if seeds == (0, 0) {
            return (0, MAXINT32);
        }
        seeds
    }

    /// The generator of the kernel for `op` with these attributes, after reserving `samples`
    /// 128-bit samples (`GuardedPhiloxRandom::ReserveSamples128`): what the kernel draws from
    /// on this call.
    pub fn reserve(
        &mut self,
        op: &'static str,
        dtype: &str,
        seeds: (i64, i64),
        samples: u64,
    ) -> Philox {
        let (s1, s2) = if seeds == (0, 0) {
            (self.entropy_u64() as i64, self.entropy_u64() as i64)
        } else {
            seeds
        };
        let gen = self
            .kernels
            .entry((op, dtype.to_string(), seeds.0, seeds.1))
            .or_insert_with(|| Philox::from_seeds(s1 as u64, s2 as u64));
        let now = *gen;
        gen.skip(samples);
        now
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<Mutex<RandomState>>>> = const { RefCell::new(None) };
}

/// The state used on threads no session installed one on.
static FALLBACK: LazyLock<Arc<Mutex<RandomState>>> =
    LazyLock::new(|| Arc::new(Mutex::new(RandomState::fresh())));

/// Makes `state` the random state of this thread's evaluations.
pub fn install(state: Arc<Mutex<RandomState>>) {
    let print = state
        .lock()
        .map_or_else(|p| p.into_inner().print, |s| s.print);
    crate::render::numpy::set_options(print);
    CURRENT.with(|c| *c.borrow_mut() = Some(state));
}

/// Runs `f` on this thread's random state.
pub fn with<R>(f: impl FnOnce(&mut RandomState) -> R) -> R {
    let state = CURRENT
        .with(|c| c.borrow().clone())
        .unwrap_or_else(|| FALLBACK.clone());
    let mut guard = state.lock().unwrap_or_else(|p| p.into_inner());
    f(&mut guard)
}
