//! NumPy files both ways: files NumPy writes (every dtype, 0-d to 3-d, Fortran order,
//! big-endian, str and bytes arrays, the values + row_splits pair, archives) read into the
//! exact values; files ragtag writes read back by NumPy unchanged; round trips through
//! `np.save`/`np.savez`/`np.load`; and real files cut short or garbled give errors, never
//! panics.
#![allow(clippy::disallowed_methods)] // test inputs: sizes are constants here

use crate::python_common;

use std::path::Path;

use ragtag::engine::{Array, Scalar, Tensor};
use ragtag::formats::numpy::{self, Loaded};
use ragtag::session::Collect;
use ragtag::value::{NdArray, Value};
use ragtag::Session;
use serde_json::Value as Json;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Asserts that `t` is the array a manifest entry describes.
#[track_caller]
fn check_entry(t: &Tensor, want: &Json, what: &str) {
    let shape: Vec<usize> = want["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(t.shape(), shape.as_slice(), "{what}: shape");
    assert_eq!(
        t.dtype().name(),
        want["dtype"].as_str().unwrap(),
        "{what}: dtype"
    );
    let (key, items) = match want.get("hex") {
        Some(h) => ("hex", h.as_array().unwrap()),
        None => ("values", want["values"].as_array().unwrap()),
    };
    assert_eq!(items.len(), t.size(), "{what}: number of values");
    for (i, w) in items.iter().enumerate() {
        let ok = match (t.data().get(i), key) {
            (Scalar::Str(b), "hex") => hex(&b) == w.as_str().unwrap(),
            (Scalar::Str(b), _) => b == w.as_str().unwrap().as_bytes(),
            (Scalar::Bool(b), _) => Some(b) == w.as_bool(),
            (Scalar::F32(v), _) => Some(f64::from(v)) == w.as_f64(),
            (Scalar::F64(v), _) => Some(v) == w.as_f64(),
            (Scalar::U64(v), _) => Some(v) == w.as_u64(),
            (s, _) if s.dtype().is_float() => s.as_f64() == w.as_f64(),
            (s, _) => s.as_i64() == w.as_i64(),
        };
        assert!(
            ok,
            "{what}: value {i} is {:?}, NumPy wrote {w}",
            t.data().get(i)
        );
    }
}

fn fixtures(dir: &Path) -> Vec<Json> {
    let out = python_common::run("formats/numpy_fixtures.py", &[dir.to_str().unwrap()]);
    serde_json::from_str(&out).expect("the manifest is JSON")
}

#[test]
fn files_numpy_writes_read_exactly() {
    let dir = python_common::scratch("numpy-read");
    let manifest = fixtures(&dir);
    let mut checked = 0;
    for entry in manifest.iter().filter(|e| {
        let f = e["file"].as_str().unwrap();
        f.ends_with(".npy") || f.ends_with(".npz")
    }) {
        let name = entry["file"].as_str().unwrap();
        let got = numpy::load(&dir.join(name));
        if let Some(class) = entry.get("error") {
            let err = got.expect_err(name);
            assert_eq!(
                err.class.to_string(),
                class.as_str().unwrap(),
                "{name}: {}",
                err.message
            );
            assert!(err.message.contains(name), "{name}: {}", err.message);
            checked += 1;
            continue;
        }
        match got.unwrap_or_else(|e| panic!("{name}: {}: {}", e.class, e.message)) {
            Loaded::Array(t) => check_entry(&t, entry, name),
            Loaded::Archive(arrays) => {
                let want = entry["arrays"].as_object().unwrap();
                let keys: Vec<&str> = arrays.iter().map(|(k, _)| k.as_str()).collect();
                let want_keys: Vec<&str> = want.keys().map(String::as_str).collect();
                assert_eq!(keys, want_keys, "{name}: keys");
                for (k, t) in &arrays {
                    check_entry(t, &want[k], &format!("{name}[{k}]"));
                }
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} files checked");
}

/// Runs the lines of `code` and returns the value of the last one (an expression).
fn run(s: &mut Session, code: &str) -> Value {
    let (setup, last) = code.rsplit_once('\n').unwrap_or(("", code));
    if !setup.is_empty() {
        s.execute(setup, &mut Collect::default())
            .unwrap_or_else(|e| panic!("{setup}: {}: {}", e.class, e.message));
    }
    s.evaluate(last, &mut Collect::default())
        .unwrap_or_else(|e| panic!("{last}: {}: {}", e.class, e.message))
}

fn nd_tensor(v: &Value) -> Tensor {
    match v {
        Value::NdArray(n) => match &**n {
            NdArray::Dense(t) => t.clone(),
            other => panic!("not dense: {other:?}"),
        },
        other => panic!("not a NumPy array: {other:?}"),
    }
}

fn array(v: &Value) -> Array {
    (*ragtag::eval::convert::to_array(v, None).unwrap()).clone()
}

#[test]
fn the_ragged_pair_np_saves_loads_as_a_ragged_tensor() {
    let dir = python_common::scratch("numpy-pair");
    fixtures(&dir);
    let mut s = Session::new();
    let pair = dir.join("pair.npz");
    let rt = run(
        &mut s,
        &format!(
            "d = np.load('{}')\ntf.RaggedTensor.from_row_splits(d['values'], d['row_splits'])",
            pair.display()
        ),
    );
    let want = run(
        &mut s,
        "tf.ragged.constant([[3, 1, 4], [], [1, 5, 9, 2], [6]])",
    );
    assert_eq!(array(&rt), array(&want));
    let keys = run(&mut s, "list(d.keys())");
    assert_eq!(s.render_value(&keys), "['values', 'row_splits']");
}

#[test]
fn files_ragtag_writes_read_back_in_numpy() {
    let dir = python_common::scratch("numpy-write");
    let mut s = Session::new();
    let p = |name: &str| dir.join(name).display().to_string();
    run(
        &mut s,
        &format!(
            "rt = tf.ragged.constant([[1, 2, 3], [], [4]])\n\
             np.save('{}', tf.constant([[1, 2], [3, 4]]))\n\
             np.save('{}', tf.constant([[0.1, -2.5e-300]], dtype=tf.float64))\n\
             np.save('{}', tf.constant([1.5, 3.0]))\n\
             np.save('{}', tf.constant(['', 'héllo', '✓']))\n\
             np.save('{}', tf.constant([True, False]))\n\
             np.save('{}', 7)\n\
             np.savez('{}', values=rt.flat_values, row_splits=rt.row_splits)\n\
             np.savez_compressed('{}', np.arange(3), names=tf.constant(['a', 'bc']))",
            p("ints.npy"),
            p("f64.npy"),
            p("f32.npy"),
            p("text.npy"),
            p("flags"),
            p("scalar.npy"),
            p("pair.npz"),
            p("mixed"),
        ),
    );
    let files = [
        "ints.npy",
        "f64.npy",
        "f32.npy",
        "text.npy",
        "flags.npy",
        "scalar.npy",
        "pair.npz",
        "mixed.npz",
    ];
    let args: Vec<String> = files.iter().map(|f| p(f)).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = python_common::run("formats/numpy_readback.py", &args);
    let got: Json = serde_json::from_str(&out).unwrap();
    let want = serde_json::json!({
        p("ints.npy"): {"dtype": "<i4", "shape": [2, 2], "values": [1, 2, 3, 4]},
        p("f64.npy"): {"dtype": "<f8", "shape": [1, 2], "values": [0.1, -2.5e-300]},
        p("f32.npy"): {"dtype": "<f4", "shape": [2], "values": [1.5, 3.0]},
        p("text.npy"): {"dtype": "<U5", "shape": [3], "values": ["", "héllo", "✓"]},
        p("flags.npy"): {"dtype": "|b1", "shape": [2], "values": [true, false]},
        p("scalar.npy"): {"dtype": "<i8", "shape": [], "values": [7]},
        p("pair.npz"): {
            "values": {"dtype": "<i4", "shape": [4], "values": [1, 2, 3, 4]},
            "row_splits": {"dtype": "<i8", "shape": [4], "values": [0, 3, 3, 4]},
        },
        p("mixed.npz"): {
            "arr_0": {"dtype": "<i8", "shape": [3], "values": [0, 1, 2]},
            "names": {"dtype": "<U2", "shape": [2], "values": ["a", "bc"]},
        },
    });
    assert_eq!(got, want);
}

#[test]
fn dense_string_and_ragged_values_round_trip() {
    let dir = python_common::scratch("numpy-round");
    let mut s = Session::new();
    let p = |name: &str| dir.join(name).display().to_string();
    for (i, value) in [
        "tf.constant([[1.5, -0.0], [1e30, 7.25]])",
        "tf.constant([[[1, 2]], [[3, 4]]], dtype=tf.int64)",
        "tf.constant(['a', 'bcd', ''])",
        "tf.constant(3)",
        "tf.zeros([0, 2])",
    ]
    .iter()
    .enumerate()
    {
        let x = run(&mut s, value);
        let back = run(
            &mut s,
            &format!(
                "np.save('{f}', {value})\nnp.load('{f}')",
                f = p(&format!("{i}.npy"))
            ),
        );
        assert_eq!(Array::Dense(nd_tensor(&back)), array(&x), "{value}");
    }
    let rt = run(&mut s, "tf.ragged.constant([['a', 'b'], [], ['c']])");
    let back = run(
        &mut s,
        &format!(
            "rt = tf.ragged.constant([['a', 'b'], [], ['c']])\n\
             np.savez('{f}', values=rt.flat_values, row_splits=rt.row_splits)\n\
             d = np.load('{f}')\n\
             tf.RaggedTensor.from_row_splits(d['values'], d['row_splits'])",
            f = p("rt.npz")
        ),
    );
    assert_eq!(array(&back), array(&rt));
}

#[test]
fn saving_a_ragged_tensor_points_at_the_pair() {
    let mut s = Session::new();
    let err = s
        .evaluate(
            "np.save('never_written.npy', tf.ragged.constant([[1], [2, 3]]))",
            &mut Collect::default(),
        )
        .unwrap_err();
    assert_eq!(err.class.to_string(), "ValueError");
    assert!(err
        .hint
        .as_deref()
        .unwrap_or("")
        .contains("row_splits=rt.row_splits"));
    assert!(!Path::new("never_written.npy").exists());
    let err = s
        .evaluate("np.load('no_such_file.npy')", &mut Collect::default())
        .unwrap_err();
    assert_eq!(err.class.to_string(), "FileNotFoundError");
    assert_eq!(
        err.message,
        "[Errno 2] No such file or directory: 'no_such_file.npy'"
    );
}

#[test]
fn numpy_s_files_cut_short_or_garbled_are_errors_never_panics() {
    let dir = python_common::scratch("numpy-fuzz");
    fixtures(&dir);
    let broken = dir.join("broken");
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !(name.ends_with(".npy") || name.ends_with(".npz")) {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).unwrap();
        let intact = numpy::load(&path).is_ok();
        for cut in (0..bytes.len()).step_by(5) {
            std::fs::write(&broken, &bytes[..cut]).unwrap();
            let r = numpy::load(&broken);
            if intact {
                // Every prefix of a file with data is an error; an empty array's header
                // alone is the whole file.
                assert!(r.is_err() || cut >= 64, "{name} cut at {cut} loads");
            }
        }
        let mut state = 0x853c_49e6_748f_ea9bu64;
        for _ in 0..300 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut garbled = bytes.clone();
            let at = state as usize % garbled.len();
            garbled[at] ^= ((state >> 33) as u8) | 1;
            std::fs::write(&broken, &garbled).unwrap();
            let _ = numpy::load(&broken);
        }
    }
    assert!(files >= 30, "{files} files");
}
