//! JSON and JSON Lines both ways: files Python's json and Awkward Array write read as
//! `tf.ragged.constant` reads the same lists; files ragtag writes read back by Python
//! exactly (floats included); nested values round-trip; errors name the file, the line and
//! the key; and cut or garbled files give errors, never panics.

use crate::python_common;

use std::path::Path;

use ragtag::engine::Array;
use ragtag::session::Collect;
use ragtag::value::Value;
use ragtag::Session;
use serde_json::Value as Json;

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

fn array(v: &Value) -> Array {
    (*ragtag::eval::convert::to_array(v, None).unwrap()).clone()
}

fn fixtures(dir: &Path) -> Vec<Json> {
    let out = python_common::run("formats/numpy_fixtures.py", &[dir.to_str().unwrap()]);
    serde_json::from_str(&out).expect("the manifest is JSON")
}

#[test]
fn files_python_and_awkward_write_read_as_tf_ragged_constant() {
    let dir = python_common::scratch("json-read");
    let mut s = Session::new();
    let mut checked = 0;
    for entry in fixtures(&dir)
        .iter()
        .filter(|e| e.get("rows").is_some() || e["file"].as_str().unwrap().ends_with(".jsonl"))
    {
        let name = entry["file"].as_str().unwrap();
        let path = dir.join(name).display().to_string();
        let call = match (entry.get("whole"), entry["field"].as_str()) {
            (Some(_), _) => format!("ragtag.read_json('{path}')"),
            (None, Some(f)) => format!("ragtag.read_jsonl('{path}', field='{f}')"),
            (None, None) => format!("ragtag.read_jsonl('{path}')"),
        };
        if let Some(class) = entry.get("error") {
            let err = s.evaluate(&call, &mut Collect::default()).unwrap_err();
            assert_eq!(err.class.to_string(), class.as_str().unwrap(), "{name}");
            assert!(err.message.contains("holds 3 nulls"), "{}", err.message);
            assert!(
                err.message.contains("line 1, key 't', at [1]"),
                "{}",
                err.message
            );
            checked += 1;
            continue;
        }
        let got = run(&mut s, &call);
        // JSON's lists are Python's lists: the same text is the literal ragtag compares with.
        let literal = entry["rows"].to_string();
        let want = run(&mut s, &format!("tf.ragged.constant({literal})"));
        assert_eq!(array(&got), array(&want), "{name} field={}", entry["field"]);
        assert_eq!(
            array(&got).dtype().name(),
            entry["dtype"].as_str().unwrap(),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
}

#[test]
fn files_ragtag_writes_read_back_in_python_exactly() {
    let dir = python_common::scratch("json-write");
    let p = |name: &str| dir.join(name).display().to_string();
    let mut s = Session::new();
    run(
        &mut s,
        &format!(
            "f = tf.constant([[0.1, 1e300], [-2.5e-310, 1.0 / 3.0]], dtype=tf.float64)\n\
             ragtag.write_jsonl(f, '{}')\n\
             ragtag.write_jsonl(tf.ragged.constant([['a', 'é\"'], [], ['\\n']]), '{}', field='tokens')\n\
             ragtag.write_jsonl(tf.constant([0.1, 16777217.0]), '{}')\n\
             0",
            p("f64.jsonl"),
            p("tokens.jsonl"),
            p("f32.jsonl"),
        ),
    );
    let out = python_common::run(
        "formats/numpy_jsonl_readback.py",
        &[&p("f64.jsonl"), &p("tokens.jsonl"), &p("f32.jsonl")],
    );
    let got: Json = serde_json::from_str(&out).unwrap();
    let f64s: Vec<f64> = got[p("f64.jsonl")]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()))
        .collect();
    assert_eq!(f64s, [0.1, 1e300, -2.5e-310, 1.0 / 3.0]);
    assert_eq!(
        got[p("tokens.jsonl")],
        serde_json::json!([{"tokens": ["a", "é\""]}, {"tokens": []}, {"tokens": ["\n"]}])
    );
    // float32 values are written with float32's shortest digits: 0.1f32, not 0.10000000149.
    assert_eq!(got[p("f32.jsonl")], serde_json::json!([0.1, 16777216.0]));
}

#[test]
fn nested_values_round_trip_through_json() {
    let dir = python_common::scratch("json-round");
    let p = |name: &str| dir.join(name).display().to_string();
    let mut s = Session::new();
    for (i, (value, dtype)) in [
        ("tf.ragged.constant([[[1, 2], []], [], [[3]]])", "None"),
        ("tf.ragged.constant([[[0.1, 2.5e-8]], [[1e38]]])", "None"),
        (
            "tf.ragged.constant([[0.1, 1.0 / 3.0], [2e-300]], dtype=tf.float64)",
            "tf.float64",
        ),
        ("tf.ragged.constant([['a', 'ü'], [], ['\"q\"']])", "None"),
        ("tf.ragged.constant([[True], [False, True]])", "None"),
        ("tf.ragged.constant([[2**40, -1], []])", "None"),
    ]
    .iter()
    .enumerate()
    {
        let x = run(&mut s, value);
        for (write, read) in [
            (
                "ragtag.write_json",
                format!(
                    "ragtag.read_json('{}', dtype={dtype})",
                    p(&format!("{i}.json"))
                ),
            ),
            (
                "ragtag.write_jsonl",
                format!(
                    "ragtag.read_jsonl('{}', dtype={dtype})",
                    p(&format!("{i}.jsonl"))
                ),
            ),
        ] {
            let ext = if write.ends_with('l') {
                "jsonl"
            } else {
                "json"
            };
            let back = run(
                &mut s,
                &format!("{write}({value}, '{}')\n{read}", p(&format!("{i}.{ext}"))),
            );
            assert_eq!(array(&back), array(&x), "{value} via {write}");
        }
    }
}

#[test]
fn errors_name_the_file_line_and_key() {
    let dir = python_common::scratch("json-errors");
    let mut s = Session::new();
    let cases: &[(&str, &str, &str, &str, &[&str])] = &[
        (
            "mixed.jsonl",
            "[1]\n[2.5]\n[\"x\"]\n",
            "None",
            "ValueError",
            &[
                "mixed types",
                "line 3 holds strings where line 1 holds numbers",
            ],
        ),
        (
            "depth.jsonl",
            "[[1]]\n\n[2]\n",
            "None",
            "ValueError",
            &["same nesting depth", "line 3"],
        ),
        (
            "missing.jsonl",
            "{\"a\": [1]}\n{\"b\": [2]}\n",
            "'a'",
            "KeyError",
            &["line 2", "'b'"],
        ),
        (
            "notrecord.jsonl",
            "{\"a\": [1]}\n[2]\n",
            "'a'",
            "TypeError",
            &["line 2"],
        ),
        (
            "syntax.jsonl",
            "[1]\n[2,,]\n",
            "None",
            "ValueError",
            &["line 2", "invalid JSON"],
        ),
        (
            "object.jsonl",
            "{\"a\": 1}\n",
            "None",
            "ValueError",
            &["line 1", "'a'"],
        ),
    ];
    for (name, text, field, class, parts) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let code = format!("ragtag.read_jsonl('{}', field={field})", path.display());
        let err = s.evaluate(&code, &mut Collect::default()).unwrap_err();
        assert_eq!(err.class.to_string(), *class, "{name}: {}", err.message);
        assert!(err.message.contains(name), "{name}: {}", err.message);
        for part in *parts {
            assert!(
                err.message.contains(part),
                "{name}: {part:?} not in {}",
                err.message
            );
        }
    }
    let err = s
        .evaluate(
            "ragtag.read_json('no_such_file.json')",
            &mut Collect::default(),
        )
        .unwrap_err();
    assert_eq!(err.class.to_string(), "FileNotFoundError");
    let err = s
        .evaluate(
            &format!(
                "ragtag.write_json(tf.constant([float('nan')]), '{}')",
                dir.join("nan.json").display()
            ),
            &mut Collect::default(),
        )
        .unwrap_err();
    assert_eq!(err.class.to_string(), "ValueError");
}

#[test]
fn json_files_cut_short_or_garbled_are_errors_never_panics() {
    let dir = python_common::scratch("json-fuzz");
    let manifest = fixtures(&dir);
    let broken = dir.join("broken.jsonl");
    for entry in &manifest {
        let name = entry["file"].as_str().unwrap();
        if !name.ends_with(".json") && !name.ends_with(".jsonl") {
            continue;
        }
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let field = entry["field"].as_str().map(str::to_string);
        let read = |path: &Path| {
            let _ = ragtag::formats::json::read_jsonl(path, field.as_deref(), None);
            let _ = ragtag::formats::json::read_json(path, None);
        };
        for cut in 0..bytes.len() {
            std::fs::write(&broken, &bytes[..cut]).unwrap();
            read(&broken);
        }
        let mut state = 0xda94_2042_e4dd_58b5u64;
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut garbled = bytes.clone();
            let at = state as usize % garbled.len();
            garbled[at] = (state >> 40) as u8;
            std::fs::write(&broken, &garbled).unwrap();
            read(&broken);
        }
    }
}

/// `fill_null=` reads every null as the value given, in JSON and JSON Lines files, by the
/// same typing rules as the rest of the file (a str fill in a file of numbers is the usual
/// mixed-types ValueError); without it the null is an error that names `fill_null=`.
#[test]
fn fill_null_replaces_nulls() {
    let dir = python_common::scratch("json-fill-null");
    let jsonl = dir.join("gaps.jsonl");
    let json = dir.join("gaps.json");
    std::fs::write(&jsonl, "[1, null, 3]\n[null]\n").unwrap();
    std::fs::write(&json, "[[0.5, null], []]").unwrap();
    let mut s = Session::new();
    let (l, j) = (jsonl.display(), json.display());
    let got = run(
        &mut s,
        &format!("ragtag.read_jsonl('{l}', fill_null=0).to_list()"),
    );
    assert_eq!(
        format!("{got:?}"),
        format!("{:?}", run(&mut s, "[[1, 0, 3], [0]]"))
    );
    let got = run(&mut s, &format!("ragtag.read_json('{j}', fill_null=-1.5)"));
    assert_eq!(
        array(&got),
        array(&run(&mut s, "tf.ragged.constant([[0.5, -1.5], []])"))
    );
    for (program, class, words) in [
        (
            format!("ragtag.read_jsonl('{l}')"),
            "ValueError",
            "fill_null=",
        ),
        (
            format!("ragtag.read_jsonl('{l}', fill_null='x')"),
            "ValueError",
            "mixed types",
        ),
        (
            format!("ragtag.read_json('{j}', fill_null=[0])"),
            "TypeError",
            "fill_null must be",
        ),
    ] {
        let e = s.execute(&program, &mut Collect::default()).unwrap_err();
        assert_eq!(e.class.name(), class, "{program}: {}", e.message);
        let text = format!("{} {}", e.message, e.hint.clone().unwrap_or_default());
        assert!(text.contains(words), "{program}: {text}");
    }
}
