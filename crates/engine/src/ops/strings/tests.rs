//! Unit tests of the string kernels.
#![allow(clippy::disallowed_methods)] // small fixed sizes

use super::*;
use crate::buffer::Buffer;
use crate::dtype::DType;
use crate::exceptions::ExceptionClass;
use crate::partition::RowPartition;
use crate::ragged::{Array, Ragged};
use crate::strings::StringBuf;
use crate::tensor::Tensor;

fn dense(shape: &[usize], items: &[&str]) -> Array {
    Array::Dense(
        Tensor::new(
            shape.to_vec(),
            Buffer::Str(StringBuf::from_strs(items.iter().copied())),
        )
        .unwrap(),
    )
}

fn vector(items: &[&str]) -> Array {
    dense(&[items.len()], items)
}

fn scalar_str(s: &str) -> Array {
    dense(&[], &[s])
}

fn ints(shape: &[usize], v: &[i64]) -> Array {
    Array::Dense(Tensor::new(shape.to_vec(), Buffer::I64(v.to_vec().into())).unwrap())
}

fn int_scalar(v: i64) -> Array {
    ints(&[], &[v])
}

/// A ragged [rows, None] string tensor.
fn ragged(rows: &[&[&str]]) -> Array {
    let lengths: Vec<i64> = rows.iter().map(|r| r.len() as i64).collect();
    let flat: Vec<&str> = rows.iter().flat_map(|r| r.iter().copied()).collect();
    let part = RowPartition::from_row_lengths(&lengths, None).unwrap();
    Array::Ragged(Ragged::from_partition(part, vector(&flat)).unwrap())
}

fn strs(a: &Array) -> Vec<String> {
    match a.flat_values().data() {
        Buffer::Str(s) => s
            .iter()
            .map(|b| String::from_utf8(b.to_vec()).unwrap())
            .collect(),
        other => panic!("not strings: {other:?}"),
    }
}

fn i64s(a: &Array) -> Vec<i64> {
    a.flat_values().data().to_i64_vec().unwrap()
}

fn row_lengths(a: &Array) -> Vec<i64> {
    match a {
        Array::Ragged(r) => r.row_lengths().to_vec(),
        Array::Dense(_) => panic!("expected a ragged tensor"),
    }
}

#[test]
fn length_bytes_and_chars() {
    let x = vector(&["", "abc", "héllo", "☃"]);
    assert_eq!(i64s(&length(&x, CharUnit::Byte).unwrap()), [0, 3, 6, 3]);
    assert_eq!(i64s(&length(&x, CharUnit::Utf8Char).unwrap()), [0, 3, 5, 1]);
    let r = length(&ragged(&[&["a", "bc"], &[], &["def"]]), CharUnit::Byte).unwrap();
    assert_eq!(r.dtype(), DType::Int32);
    assert_eq!(row_lengths(&r), [2, 0, 1]);
    assert_eq!(i64s(&r), [1, 2, 3]);
    assert!(length(&ints(&[1], &[1]), CharUnit::Byte).is_err());
    assert_eq!(
        CharUnit::parse("WORD").unwrap_err().class,
        ExceptionClass::InvalidArgumentError
    );
}

#[test]
fn substr_bytes() {
    let x = vector(&["hello", "", "ab"]);
    let got = substr(&x, &int_scalar(0), &int_scalar(2), CharUnit::Byte).unwrap();
    assert_eq!(strs(&got), ["he", "", "ab"]);
    // Negative positions count from the end; lengths past the end stop there.
    let got = substr(
        &vector(&["hello"]),
        &int_scalar(-3),
        &int_scalar(10),
        CharUnit::Byte,
    )
    .unwrap();
    assert_eq!(strs(&got), ["llo"]);
    // pos == len(s) is allowed and gives ''.
    let got = substr(
        &vector(&["abc"]),
        &int_scalar(3),
        &int_scalar(1),
        CharUnit::Byte,
    )
    .unwrap();
    assert_eq!(strs(&got), [""]);
    // Elementwise pos/len.
    let got = substr(
        &vector(&["hello", "world"]),
        &ints(&[2], &[1, -3]),
        &ints(&[2], &[3, 2]),
        CharUnit::Byte,
    )
    .unwrap();
    assert_eq!(strs(&got), ["ell", "rl"]);
}

#[test]
fn substr_errors() {
    let e = substr(
        &vector(&["ok", "abc"]),
        &int_scalar(4),
        &int_scalar(1),
        CharUnit::Byte,
    )
    .unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    assert!(
        e.message.contains("pos 4") && e.message.contains("b'ok'"),
        "{}",
        e.message
    );
    let e = substr(
        &vector(&["abc"]),
        &int_scalar(-4),
        &int_scalar(1),
        CharUnit::Byte,
    )
    .unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    let e = substr(
        &vector(&["abc"]),
        &ints(&[1], &[0]),
        &ints(&[2], &[1, 1]),
        CharUnit::Byte,
    )
    .unwrap_err();
    assert!(e.message.contains("same shape"), "{}", e.message);
    let e = substr(
        &vector(&["a", "b"]),
        &ints(&[3], &[0, 0, 0]),
        &ints(&[3], &[1, 1, 1]),
        CharUnit::Byte,
    )
    .unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    let e = substr(
        &vector(&["abc"]),
        &ints(&[0], &[]),
        &ints(&[0], &[]),
        CharUnit::Byte,
    )
    .unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
}

#[test]
fn substr_utf8_chars() {
    let x = vector(&["héllo", "☃☃☃", ""]);
    let got = substr(&x, &int_scalar(0), &int_scalar(2), CharUnit::Utf8Char).unwrap();
    assert_eq!(strs(&got), ["hé", "☃☃", ""]);
    let got = substr(
        &vector(&["héllo"]),
        &int_scalar(-4),
        &int_scalar(2),
        CharUnit::Utf8Char,
    )
    .unwrap();
    assert_eq!(strs(&got), ["él"]);
    let got = substr(
        &vector(&["héllo"]),
        &int_scalar(1),
        &int_scalar(100),
        CharUnit::Utf8Char,
    )
    .unwrap();
    assert_eq!(strs(&got), ["éllo"]);
    // Five characters: pos 6 is out of range, though the string has 6 bytes.
    let e = substr(
        &vector(&["héllo"]),
        &int_scalar(6),
        &int_scalar(1),
        CharUnit::Utf8Char,
    )
    .unwrap_err();
    assert!(e.message.contains("5 characters"), "{}", e.message);
    assert!(substr(
        &vector(&["héllo"]),
        &int_scalar(-6),
        &int_scalar(1),
        CharUnit::Utf8Char
    )
    .is_err());
}

#[test]
fn substr_ragged_keeps_rows_and_broadcasts() {
    let words = ragged(&[
        &["So", "long"],
        &["thanks", "for", "all", "the", "fish"],
        &[],
    ]);
    let got = substr(&words, &int_scalar(0), &int_scalar(2), CharUnit::Byte).unwrap();
    assert_eq!(row_lengths(&got), [2, 5, 0]);
    assert_eq!(strs(&got), ["So", "lo", "th", "fo", "al", "th", "fi"]);
    // A per-row position broadcasts along each row.
    let words = ragged(&[&["abc", "def"], &["ghi"]]);
    let got = substr(
        &words,
        &ints(&[2, 1], &[1, 2]),
        &ints(&[2, 1], &[1, 1]),
        CharUnit::Byte,
    )
    .unwrap();
    assert_eq!(strs(&got), ["b", "e", "i"]);
}

#[test]
fn case_and_strip() {
    let x = vector(&["Hello", "", "ÜnÏ"]);
    assert_eq!(strs(&upper(&x, "").unwrap()), ["HELLO", "", "ÜNÏ"]);
    assert_eq!(strs(&lower(&x, "").unwrap()), ["hello", "", "ÜnÏ"]);
    assert_eq!(strs(&lower(&x, "utf-8").unwrap()), ["hello", "", "ünï"]);
    assert_eq!(
        strs(&upper(&vector(&["straße"]), "utf-8").unwrap()),
        ["STRASSE"]
    );
    assert!(upper(&x, "latin-1").is_err());
    let r = ragged(&[&[" a ", "\tb\n"], &[], &["", "  "]]);
    let got = strip(&r).unwrap();
    assert_eq!(row_lengths(&got), [2, 0, 2]);
    assert_eq!(strs(&got), ["a", "b", "", ""]);
}

#[test]
fn hash_buckets_match_tensorflow() {
    let q = ragged(&[
        &["Who", "is", "Dan", "Smith"],
        &["Pause"],
        &["Will", "it", "rain", "later", "today"],
    ]);
    let got = to_hash_bucket_fast(&q, 1024).unwrap();
    assert_eq!(got.dtype(), DType::Int64);
    assert_eq!(row_lengths(&got), [4, 1, 5]);
    assert_eq!(i64s(&got), [633, 768, 237, 309, 28, 847, 998, 635, 20, 547]);
    // The example of TensorFlow's documentation.
    let got = to_hash_bucket_fast(&vector(&["Hello", "TensorFlow", "2.x"]), 3).unwrap();
    assert_eq!(i64s(&got), [0, 2, 2]);
    assert_eq!(
        to_hash_bucket_fast(&q, 0).unwrap_err().class,
        ExceptionClass::InvalidArgumentError
    );
}

#[test]
fn fingerprint64_reference_vectors() {
    // Google's farmhash.cc (util::Fingerprint64) on these inputs; they cover every length
    // class of farmhashna::Hash64, including the > 64-byte multiple-of-64 case.
    let cases: &[(Vec<u8>, u64)] = &[
        (b"".to_vec(), 11160318154034397263),
        (b"a".to_vec(), 12917804110809363939),
        (b"Hello".to_vec(), 15404698994557526151),
        (b"TensorFlow".to_vec(), 4265654129848386254),
        (vec![b'a'; 17], 17591810127221272131),
        (vec![b'a'; 33], 17311116001694225749),
        (vec![b'a'; 64], 5893282057753879417),
        (vec![b'a'; 65], 7778058094944459892),
        (vec![b'a'; 128], 13699116105903195126),
        (vec![b'a'; 200], 14721331430260164897),
        ("héllo wörld ☃".as_bytes().to_vec(), 6458667434980422263),
    ];
    for (input, want) in cases {
        assert_eq!(
            farmhash2::fingerprint64(input),
            *want,
            "length {}",
            input.len()
        );
    }
}

#[test]
fn join_elementwise() {
    let a = vector(&["a", "", "c"]);
    let b = vector(&["1", "2", ""]);
    assert_eq!(strs(&join(&[&a, &b], b"+").unwrap()), ["a+1", "+2", "c+"]);
    assert_eq!(strs(&join(&[&a], b"+").unwrap()), ["a", "", "c"]);
    let s = scalar_str("<");
    assert_eq!(
        strs(&join(&[&s, &a, &s], b"").unwrap()),
        ["<a<", "<<", "<c<"]
    );
    let both = join(&[&scalar_str("x"), &scalar_str("y")], b"-").unwrap();
    assert!(matches!(&both, Array::Dense(t) if t.rank() == 0));
    assert_eq!(strs(&both), ["x-y"]);
    assert!(join(&[], b"").is_err());
    let e = join(&[&a, &vector(&["p", "q"])], b"").unwrap_err();
    assert_eq!(e.class, ExceptionClass::InvalidArgumentError);
    assert!(join(&[&a, &ints(&[3], &[1, 2, 3])], b"").is_err());
}

#[test]
fn join_ragged_same_rows_and_broadcast() {
    let x = ragged(&[&["#", "Who", "is"], &[], &["#", "Pause"]]);
    let y = ragged(&[&["Who", "is", "#"], &[], &["Pause", "#"]]);
    let got = join(&[&x, &y], b"+").unwrap();
    assert_eq!(row_lengths(&got), [3, 0, 2]);
    assert_eq!(
        strs(&got),
        ["#+Who", "Who+is", "is+#", "#+Pause", "Pause+#"]
    );
    // A dense column [3, 1] broadcasts along each ragged row.
    let col = dense(&[3, 1], &["A", "B", "C"]);
    let got = join(&[&col, &x], b":").unwrap();
    assert_eq!(row_lengths(&got), [3, 0, 2]);
    assert_eq!(strs(&got), ["A:#", "A:Who", "A:is", "C:#", "C:Pause"]);
    // A ragged row that holds one element does not stretch along the other's row
    // (TensorFlow broadcasts only uniform dimensions of size 1).
    let z = ragged(&[&["a"], &[], &["b", "c"]]);
    assert!(join(&[&x, &z], b"").is_err());
    // Rows that differ in length otherwise do not line up.
    let z = ragged(&[&["a", "b"], &[], &["b", "c"]]);
    assert_eq!(
        join(&[&x, &z], b"").unwrap_err().class,
        ExceptionClass::InvalidArgumentError
    );
}

#[test]
fn reduce_join_dense() {
    let x = dense(&[2, 3], &["a", "b", "c", "d", "e", "f"]);
    let all = reduce_join(&x, None, false, b",").unwrap();
    assert_eq!(
        (all.rank(), strs(&all)),
        (0, vec!["a,b,c,d,e,f".to_string()])
    );
    assert_eq!(
        strs(&reduce_join(&x, Some(&[0]), false, b"").unwrap()),
        ["ad", "be", "cf"]
    );
    assert_eq!(
        strs(&reduce_join(&x, Some(&[-1]), false, b"").unwrap()),
        ["abc", "def"]
    );
    let kept = reduce_join(&x, Some(&[1]), true, b"").unwrap();
    assert_eq!(kept.shape(), [Some(2), Some(1)]);
    assert_eq!(
        reduce_join(&x, None, true, b"").unwrap().shape(),
        [Some(1), Some(1)]
    );
    assert_eq!(
        strs(&reduce_join(&x, Some(&[0, 1]), false, b"").unwrap()),
        ["abcdef"]
    );
    assert!(reduce_join(&x, Some(&[2]), false, b"").is_err());
    let empty = dense(&[2, 0], &[]);
    assert_eq!(
        strs(&reduce_join(&empty, Some(&[1]), false, b"-").unwrap()),
        ["", ""]
    );
}

#[test]
fn reduce_join_ragged() {
    let x = ragged(&[&["a", "b", "c"], &[], &["d", "e"]]);
    let rows = reduce_join(&x, Some(&[1]), false, b" ").unwrap();
    assert!(matches!(rows, Array::Dense(_)));
    assert_eq!(strs(&rows), ["a b c", "", "d e"]);
    assert_eq!(
        strs(&reduce_join(&x, Some(&[0]), false, b"|").unwrap()),
        ["a|d", "b|e", "c"]
    );
    assert_eq!(strs(&reduce_join(&x, None, false, b"").unwrap()), ["abcde"]);
}

#[test]
fn split_whitespace_and_separator() {
    let x = vector(&["hello world", "  a  b\tc ", "", "   "]);
    let got = split(&x, None, -1).unwrap();
    assert_eq!(got.shape(), [Some(4), None]);
    assert_eq!(row_lengths(&got), [2, 3, 0, 0]);
    assert_eq!(strs(&got), ["hello", "world", "a", "b", "c"]);
    // An empty separator is the whitespace rule too.
    assert_eq!(
        row_lengths(&split(&x, Some(b""), -1).unwrap()),
        [2, 3, 0, 0]
    );
    let got = split(&vector(&["1,2,,3,", ""]), Some(b","), -1).unwrap();
    assert_eq!(row_lengths(&got), [5, 1]);
    assert_eq!(strs(&got), ["1", "2", "", "3", "", ""]);
    let got = split(&vector(&["1<>2<>3"]), Some(b"<>"), 1).unwrap();
    assert_eq!(strs(&got), ["1", "2<>3"]);
    let got = split(&vector(&["a b c"]), None, 1).unwrap();
    assert_eq!(strs(&got), ["a", "b c"]);
    assert_eq!(strs(&split(&vector(&["a b"]), None, 0).unwrap()), ["a b"]);
    let got = split(&vector(&["héllo wörld"]), None, -1).unwrap();
    assert_eq!(strs(&got), ["héllo", "wörld"]);
}

#[test]
fn split_shapes() {
    let s = split(&scalar_str("a b"), None, -1).unwrap();
    assert!(matches!(&s, Array::Dense(t) if t.shape() == [2]));
    let m = split(&dense(&[2, 2], &["a b", "c", "", "d e f"]), None, -1).unwrap();
    assert_eq!(m.shape(), [Some(2), Some(2), None]);
    assert_eq!(m.ragged_rank(), 2);
    assert_eq!(strs(&m), ["a", "b", "c", "d", "e", "f"]);
    let r = split(&ragged(&[&["a b", "c"], &[]]), None, -1).unwrap();
    assert_eq!(r.shape(), [Some(2), None, None]);
    assert_eq!(row_lengths(&r), [2, 0]);
    let empty = split(&vector(&[]), None, -1).unwrap();
    assert_eq!(empty.shape(), [Some(0), None]);
}

#[test]
fn to_number_types_and_errors() {
    let x = vector(&["1.5", " -2 ", "1e3", "inf"]);
    let f = to_number(&x, DType::Float32).unwrap();
    assert_eq!(
        f.flat_values().data(),
        &Buffer::from(vec![1.5f32, -2.0, 1000.0, f32::INFINITY])
    );
    let i = to_number(&ragged(&[&["1", "-20"], &[]]), DType::Int64).unwrap();
    assert_eq!(i64s(&i), [1, -20]);
    assert_eq!(row_lengths(&i), [2, 0]);
    for bad in ["", "abc", "1.5x", "1_000"] {
        let e = to_number(&vector(&[bad]), DType::Float64).unwrap_err();
        assert_eq!(e.class, ExceptionClass::InvalidArgumentError, "{bad:?}");
    }
    assert!(to_number(&vector(&["1.5"]), DType::Int32).is_err());
    assert!(to_number(&vector(&["+1"]), DType::Int32).is_err());
    assert_eq!(
        to_number(&vector(&["+1"]), DType::Float64)
            .unwrap()
            .flat_values()
            .data(),
        &Buffer::from(vec![1.0f64])
    );
    assert!(to_number(&vector(&["3000000000"]), DType::Int32).is_err());
    assert_eq!(
        to_number(&vector(&["1"]), DType::String).unwrap_err().class,
        ExceptionClass::TypeError
    );
}

fn fmt(a: &Array, spec: AsStringSpec) -> Vec<String> {
    strs(&as_string(a, &spec).unwrap())
}

#[test]
fn as_string_like_printf() {
    let f = Array::Dense(Tensor::vector(Buffer::F32(
        vec![1.23456, -2.0, 0.0, f32::NAN, f32::NEG_INFINITY].into(),
    )));
    assert_eq!(
        fmt(&f, AsStringSpec::default()),
        ["1.234560", "-2.000000", "0.000000", "nan", "-inf"]
    );
    let p2 = AsStringSpec {
        precision: Some(2),
        ..Default::default()
    };
    assert_eq!(fmt(&f, p2)[..2], ["1.23", "-2.00"]);
    let d = Array::Dense(Tensor::vector(Buffer::F64(
        vec![1234567.0, 0.0001, 0.00001234, 100.0, 0.5].into(),
    )));
    let g = AsStringSpec {
        shortest: true,
        ..Default::default()
    };
    assert_eq!(
        fmt(&d, g),
        ["1.23457e+06", "0.0001", "1.234e-05", "100", "0.5"]
    );
    let e = AsStringSpec {
        scientific: true,
        precision: Some(3),
        ..Default::default()
    };
    assert_eq!(fmt(&d, e)[..2], ["1.235e+06", "1.000e-04"]);
    let i = ints(&[3], &[7, -42, 0]);
    let zero = AsStringSpec {
        width: Some(4),
        fill: "0".into(),
        ..Default::default()
    };
    assert_eq!(fmt(&i, zero), ["0007", "-042", "0000"]);
    let left = AsStringSpec {
        width: Some(4),
        fill: "-".into(),
        ..Default::default()
    };
    assert_eq!(fmt(&i, left), ["7   ", "-42 ", "0   "]);
    let plus = AsStringSpec {
        fill: "+".into(),
        ..Default::default()
    };
    assert_eq!(fmt(&i, plus), ["+7", "-42", "+0"]);
    let b = Array::Dense(Tensor::vector(Buffer::from(vec![true, false])));
    assert_eq!(fmt(&b, AsStringSpec::default()), ["true", "false"]);
    let bad = AsStringSpec {
        precision: Some(2),
        ..Default::default()
    };
    assert!(as_string(&i, &bad).is_err());
    let bad = AsStringSpec {
        fill: "x".into(),
        ..Default::default()
    };
    assert!(as_string(&i, &bad).is_err());
}

#[test]
fn results_live_in_one_buffer() {
    // 100k strings in, 100k strings out: one byte buffer and n + 1 offsets, for a dense
    // result and for the flat values of a ragged one.
    let n = 100_000;
    let mut col = StringBuf::new();
    for i in 0..n {
        col.push_with(|w| {
            use std::fmt::Write;
            let _ = write!(w, "w{i} x");
        });
    }
    let x = Array::Dense(Tensor::vector(Buffer::Str(col)));
    let up = upper(&x, "").unwrap();
    let Buffer::Str(s) = up.flat_values().data() else {
        panic!("strings")
    };
    assert_eq!(s.len(), n);
    assert_eq!(s.offsets().len(), n + 1);
    assert_eq!(*s.offsets().last().unwrap(), s.bytes().len());
    assert_eq!(s.get(12345), b"W12345 X");
    let parts = split(&x, None, -1).unwrap();
    let Buffer::Str(t) = parts.flat_values().data() else {
        panic!("strings")
    };
    assert_eq!((t.len(), t.offsets().len()), (2 * n, 2 * n + 1));
    let joined = join(&[&x, &x], b"|").unwrap();
    let Buffer::Str(j) = joined.flat_values().data() else {
        panic!("strings")
    };
    assert_eq!(j.offsets().len(), n + 1);
    assert_eq!(j.bytes().len(), 2 * s.bytes().len() + n);
}

fn spec(widths: &[i64], pad: Option<(&str, &str)>, pad_width: i64, short: bool) -> NgramSpec {
    let (l, r) = pad.unwrap_or(("", ""));
    NgramSpec {
        widths: widths.to_vec(),
        separator: b"|".to_vec(),
        left_pad: l.as_bytes().to_vec(),
        right_pad: r.as_bytes().to_vec(),
        pad_width: if pad.is_some() { pad_width } else { 0 },
        preserve_short: short,
    }
}

#[test]
fn ngrams_pad_and_preserve() {
    let data = ragged(&[&["a"], &["b", "c", "d"], &["e", "f"]]);
    let out = ngrams(&data, &spec(&[3], Some(("LP", "RP")), -1, false)).unwrap();
    assert_eq!(row_lengths(&out), vec![3, 5, 4]);
    assert_eq!(strs(&out)[..3], ["LP|LP|a", "LP|a|RP", "a|RP|RP"]);
    let out = ngrams(&data, &spec(&[5], Some(("LP", "RP")), 1, true)).unwrap();
    assert_eq!(strs(&out), ["LP|a|RP", "LP|b|c|d|RP", "LP|e|f|RP"]);
    let out = ngrams(&vector(&["a", "b", "c"]), &spec(&[2, 3], None, 0, false)).unwrap();
    assert_eq!(strs(&out), ["a|b", "b|c", "a|b|c"]);
    assert!(ngrams(&scalar_str("a"), &spec(&[2], None, 0, false)).is_err());
    assert!(ngrams(&vector(&["a"]), &spec(&[0], None, 0, false)).is_err());
}

#[test]
fn regex_rewrites_follow_re2() {
    let x = vector(&["John Smith", "a.b"]);
    let out = regex_replace(&x, r"(\w+) (\w+)", br"\2 \1", true).unwrap();
    assert_eq!(strs(&out), ["Smith John", "a.b"]);
    // A group the pattern lacks leaves the strings as they are.
    let out = regex_replace(&x, r"(\.)", br"\2", true).unwrap();
    assert_eq!(strs(&out), ["John Smith", "a.b"]);
    let out = regex_replace(&vector(&["abc"]), "", "x".as_bytes(), true).unwrap();
    assert_eq!(strs(&out), ["xaxbxcx"]);
    let out = regex_full_match(&vector(&["ab", "abab", "b"]), "ab|abab").unwrap();
    assert_eq!(
        out.flat_values().data(),
        &Buffer::from(vec![true, true, false])
    );
    assert_eq!(
        regex_replace(&x, "A[", b"x", true).unwrap_err().class,
        ExceptionClass::InvalidArgumentError
    );
}

#[test]
fn unicode_round_trip_and_errors() {
    let d = DecodeSpec {
        encoding: Encoding::Utf8,
        errors: OnError::Replace,
        replacement: 0xFFFD,
        replace_control: false,
    };
    let (cps, offs) = unicode_decode(&vector(&["h\u{e9}", ""]), &d, true).unwrap();
    assert_eq!(i64s(&cps), vec![104, 233]);
    assert_eq!(row_lengths(&cps), vec![2, 0]);
    assert_eq!(i64s(&offs.unwrap()), vec![0, 1]);
    let back = unicode_encode(&cps, Encoding::Utf8, OnError::Strict, 0xFFFD).unwrap();
    assert_eq!(strs(&back), ["h\u{e9}", ""]);
    let bad = ints(&[3], &[72, -1, 105]);
    assert_eq!(
        strs(&unicode_encode(&bad, Encoding::Utf8, OnError::Replace, 63).unwrap()),
        ["H?i"]
    );
    assert!(unicode_encode(&bad, Encoding::Utf8, OnError::Strict, 63).is_err());
    let (chars, _) = unicode_split(&scalar_str("\u{e9}x"), &d, false).unwrap();
    assert_eq!(strs(&chars), ["\u{e9}", "x"]);
    assert_eq!(strs(&bytes_split(&scalar_str("ab")).unwrap()), ["a", "b"]);
}

#[test]
fn regex_perl_classes_are_ascii_as_in_re2() {
    let x = vector(&["\u{e9}t\u{e9} 2024", "a_b-c"]);
    let out = regex_replace(&x, r"\w", b"*", true).unwrap();
    assert_eq!(strs(&out), ["\u{e9}*\u{e9} ****", "***-*"]);
    let out = regex_replace(&x, r"[\d\s]", b"#", true).unwrap();
    assert_eq!(strs(&out), ["\u{e9}t\u{e9}#####", "a_b-c"]);
    let out = regex_replace(&x, r"\b", b"|", true).unwrap();
    assert_eq!(strs(&out), ["\u{e9}|t|\u{e9} |2024|", "|a_b|-|c|"]);
    let out = regex_full_match(&x, r"[^\W]+[[:punct:]]\w").unwrap();
    assert_eq!(out.flat_values().data(), &Buffer::from(vec![false, true]));
    let out = regex_replace(&vector(&["a]b"]), r"[]a]", b"x", true).unwrap();
    assert_eq!(strs(&out), ["xxb"]);
}
