//! JSON and JSON Lines: round trips, the literal rules' errors with their line, nulls, and
//! broken files as errors, never panics.

use super::*;
use ragtag_engine::literal::Leaf;
use ragtag_engine::{Buffer, Tensor};

struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("ragtag-json-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
    fn file(&self, name: &str, text: &str) -> std::path::PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn list(items: Vec<Nested>) -> Nested {
    Nested::List(items)
}

fn ints(v: &[i64]) -> Nested {
    list(v.iter().map(|&i| Nested::Leaf(Leaf::Int(i))).collect())
}

#[test]
fn json_lines_read_as_tf_ragged_constant_reads_the_list() {
    let dir = Dir::new("rows");
    let p = dir.file("rows.jsonl", "[1, 2, 3]\n\n[]\n  [4]\n");
    let want = to_array(&list(vec![ints(&[1, 2, 3]), ints(&[]), ints(&[4])]), None).unwrap();
    assert_eq!(read_jsonl(&p, None, None).unwrap(), want);
    let p = dir.file(
        "records.jsonl",
        "{\"id\": 1, \"tokens\": [\"a\", \"b\"]}\n{\"id\": 2, \"tokens\": []}\n",
    );
    let got = read_jsonl(&p, Some("tokens"), None).unwrap();
    assert_eq!(got.dtype(), DType::String);
    assert_eq!(got.nrows(), 2);
}

#[test]
fn errors_name_the_file_the_line_and_the_key() {
    let dir = Dir::new("errors");
    let p = dir.file("mixed.jsonl", "[1, 2]\n[3]\n[\"x\"]\n");
    let err = read_jsonl(&p, None, None).unwrap_err();
    assert_eq!(err.class, ExceptionClass::ValueError);
    assert!(err.message.contains("mixed types"), "{}", err.message);
    assert!(
        err.message
            .contains("line 3 holds strings where line 1 holds numbers"),
        "{}",
        err.message
    );
    let p = dir.file("depth.jsonl", "[1, 2]\n[[3]]\n");
    let err = read_jsonl(&p, None, None).unwrap_err();
    assert!(
        err.message.contains("same nesting depth"),
        "{}",
        err.message
    );
    assert!(err.message.contains("line 2"), "{}", err.message);
    let p = dir.file("nulls.jsonl", "{\"t\": [1, null]}\n{\"t\": [null]}\n");
    let err = read_jsonl(&p, Some("t"), None).unwrap_err();
    assert!(err.message.contains("holds 2 nulls"), "{}", err.message);
    assert!(
        err.message.contains("line 1, key 't', at [1]"),
        "{}",
        err.message
    );
    let err = read_jsonl(&p, Some("tokens"), None).unwrap_err();
    assert_eq!(err.class, ExceptionClass::KeyError);
    assert!(
        err.message.contains("line 1") && err.message.contains("'t'"),
        "{}",
        err.message
    );
    let err = read_jsonl(&p, None, None).unwrap_err();
    assert!(err.message.contains("JSON object"), "{}", err.message);
    let p = dir.file("bad.jsonl", "[1]\n[2,\n");
    let err = read_jsonl(&p, None, None).unwrap_err();
    assert!(
        err.message.contains("'bad.jsonl', line 2") || err.message.contains("line 2"),
        "{}",
        err.message
    );
}

#[test]
fn written_json_reads_back_equal() {
    let dir = Dir::new("round");
    let floats = Tensor::new(
        vec![2, 2],
        Buffer::F64(vec![0.1, 1e300, -2.5e-310, 3.0].into()),
    )
    .unwrap();
    let p = dir.0.join("f.json");
    write_json(&p, &Array::Dense(floats.clone())).unwrap();
    // tf.ragged.constant reads a rectangular 2-D list as a ragged tensor of equal rows.
    let back = read_json(&p, Some(DType::Float64)).unwrap();
    assert_eq!(back.flat_values(), &floats.reshaped(vec![4]).unwrap());
    assert_eq!(back.rank(), 2);
    let nested = list(vec![
        list(vec![ints(&[1, 2]), ints(&[])]),
        list(vec![]),
        list(vec![ints(&[3])]),
    ]);
    let rt = to_array(&nested, None).unwrap();
    for field in [None, Some("x")] {
        let p = dir.0.join("r.jsonl");
        write_jsonl(&p, &rt, field).unwrap();
        assert_eq!(read_jsonl(&p, field, None).unwrap(), rt);
    }
    let p = dir.0.join("r.json");
    write_json(&p, &rt).unwrap();
    assert_eq!(read_json(&p, None).unwrap(), rt);
    let bad = Tensor::new(vec![1], Buffer::F32(vec![f32::NAN].into())).unwrap();
    assert!(write_json(&p, &Array::Dense(bad)).is_err());
}

#[test]
fn truncated_and_garbled_files_are_errors_not_panics() {
    let dir = Dir::new("fuzz");
    let text = "{\"t\": [[1.5, 2], []]}\n{\"t\": [[3e5]]}\n[\"é\", \"\\u00e9\"]\n";
    for cut in 0..text.len() {
        let Some(part) = text.get(..cut) else {
            continue;
        };
        let p = dir.file("cut.jsonl", part);
        let _ = read_jsonl(&p, Some("t"), None);
        let _ = read_json(&p, None);
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..500 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut bytes = text.as_bytes().to_vec();
        let at = state as usize % bytes.len();
        bytes[at] = (state >> 40) as u8;
        let p = dir.0.join("garbled.jsonl");
        std::fs::write(&p, &bytes).unwrap();
        let _ = read_jsonl(&p, None, None);
        let _ = read_json(&p, None);
    }
    let deep: String = std::iter::repeat_n('[', 100_000).collect();
    let p = dir.file("deep.json", &deep);
    assert!(read_json(&p, None).is_err());
}

#[test]
fn floats_are_written_with_round_trip_digits() {
    let t = Tensor::new(
        vec![3],
        Buffer::F32(vec![0.1f32, 1e20, 16_777_216.0].into()),
    )
    .unwrap();
    assert_eq!(write::dense_text(&t), "[0.1, 1e20, 16777216.0]");
}
