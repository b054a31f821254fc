//! Parquet and Arrow IPC through a `Session`: files pyarrow and Awkward Array write (List,
//! LargeList, nested lists, FixedSizeList, strings, structs, nulls, several row groups,
//! every codec) read to exactly the values pyarrow sees; ragtag's own files round-trip and
//! read back in pyarrow unchanged; missing, corrupt and truncated files and reads past the
//! memory budget are clear errors, never panics.

use crate::python_common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ragtag::session::Collect;
use ragtag::Session;
use serde_json::{json, Value as J};

/// The directory the fixture script wrote its files to, and their expected values.
fn fixtures() -> &'static (PathBuf, J) {
    static FIXTURES: OnceLock<(PathBuf, J)> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let dir = python_common::scratch("arrow-fixtures");
        python_common::run("formats/arrow_fixtures.py", &[dir.to_str().unwrap()]);
        let expected = std::fs::read_to_string(dir.join("expected.json")).unwrap();
        (dir, serde_json::from_str(&expected).unwrap())
    })
}

fn fixture(name: &str) -> String {
    fixtures().0.join(name).display().to_string()
}

/// The JSON of the one value `program` displays.
#[track_caller]
fn one(program: &str) -> J {
    let mut out = ragtag::session::json_outputs(program);
    assert_eq!(out.len(), 1, "{program}: {out:?}");
    let v = out.pop().unwrap();
    assert_ne!(v["kind"], "error", "{program}: {v}");
    v
}

/// The error `program` stops on.
#[track_caller]
fn error(program: &str) -> ragtag::diagnostic::Error {
    let mut session = Session::new();
    match session.execute(program, &mut Collect::default()) {
        Ok(()) => panic!("{program} ran without error"),
        Err(e) => e,
    }
}

/// The reader for a file, by its extension.
fn reader(file: &str) -> &'static str {
    if file.ends_with(".parquet") {
        "ak.from_parquet"
    } else {
        "ragtag.read_arrow"
    }
}

#[test]
fn files_pyarrow_and_awkward_write_read_to_the_same_values() {
    let (_, expected) = fixtures();
    let mut checked = 0;
    for (key, want) in expected.as_object().unwrap() {
        let (file, column) = key.split_once(':').unwrap();
        let skip = ["blob", "when"].contains(&column)
            || want["type"].as_str().unwrap().starts_with("struct")
            || file == "nulls.parquet"
            || file == "unsupported.parquet";
        if skip {
            continue;
        }
        let program = format!("{}('{}', columns='{column}')", reader(file), fixture(file));
        let got = one(&program);
        assert_eq!(got["value"], want["values"], "{key} ({})", want["type"]);
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} columns checked");
}

#[test]
fn arrow_types_map_to_the_engine_s_dtypes() {
    let file = fixture("numbers.parquet");
    let v = one(&format!("ak.from_parquet('{file}')"));
    let dtypes: Vec<(&str, &str)> = v["value"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.as_str(), v["dtype"].as_str().unwrap()))
        .collect();
    assert_eq!(
        dtypes,
        [
            ("i8", "int8"),
            ("i16", "int16"),
            ("u8", "uint8"),
            ("u16", "uint16"),
            ("u32", "uint32"),
            ("u64", "uint64"),
            ("f16", "float16"),
            ("flag", "bool"),
        ]
    );
    // List offsets are 32-bit, LargeList offsets 64-bit: the row_splits keep the width.
    let lists = fixture("lists_snappy.parquet");
    for (column, dtype) in [("tokens", "int32"), ("large", "int64")] {
        let v = one(&format!(
            "ak.from_parquet('{lists}', columns='{column}').row_splits"
        ));
        assert_eq!(v["dtype"], dtype, "{column}");
    }
    // A FixedSizeList is a uniform dimension: dense when every level is fixed, else a
    // uniform inner dimension of the ragged tensor.
    let fixed = fixture("fixed.parquet");
    assert_eq!(
        one(&format!("ak.from_parquet('{fixed}', columns='grid')"))["shape"],
        json!([2, 2, 2])
    );
    assert_eq!(
        one(&format!("ak.from_parquet('{fixed}', columns='points')"))["shape"],
        json!([2, null, 2])
    );
    assert_eq!(
        one(&format!(
            "ak.from_parquet('{fixed}', columns='pairs_of_lists')"
        ))["shape"],
        json!([2, 2, null])
    );
    // Binary values keep their bytes.
    let strings = fixture("strings.parquet");
    let lengths = one(&format!(
        "tf.strings.length(ak.from_parquet('{strings}', columns='blob'))"
    ));
    assert_eq!(lengths["value"], json!([2, 0, 1, 2]));
    // Awkward's plain jagged array is one column named "": one column gives a tensor.
    let jagged = one(&format!(
        "ak.from_parquet('{}')",
        fixture("awkward_jagged.parquet")
    ));
    assert_eq!(jagged["value"], json!([[1, 2, 3], [], [4]]));
}

#[test]
fn nulls_are_counted_and_filled_never_dropped() {
    let file = fixture("nulls.parquet");
    let cases = [
        (
            "tokens",
            "column 'tokens' has 2 null rows and 3 null values; ragtag's tensors have no null",
        ),
        (
            "word",
            "column 'word' has 2 null values; ragtag's tensors have no null",
        ),
        // A null struct row makes its field null: one from the struct, one of the field.
        (
            "doc.n",
            "column 'doc.n' has 2 null values; ragtag's tensors have no null",
        ),
        // A null fixed-size row is one null row, not two null values.
        (
            "xyz",
            "column 'xyz' has 1 null row and 1 null value; ragtag's tensors have no null",
        ),
    ];
    for (column, message) in cases {
        let e = error(&format!("ak.from_parquet('{file}', columns='{column}')"));
        assert_eq!(e.class.name(), "ValueError");
        assert_eq!(e.message, message);
        assert!(e.hint.clone().unwrap().contains("fill_null="));
    }
    let filled = |column: &str, fill: &str| {
        one(&format!(
            "ak.from_parquet('{file}', columns='{column}', fill_null={fill})"
        ))["value"]
            .clone()
    };
    assert_eq!(
        filled("tokens", "0"),
        json!([[1, 0], [], [3], [], [0, 0, 4]])
    );
    assert_eq!(filled("word", "'?'"), json!(["a", "?", "c", "d", "?"]));
    assert_eq!(filled("doc.n", "-1"), json!([1, -1, 3, -1, 5]));
    assert_eq!(
        filled("xyz", "0"),
        json!([[1, 2], [0, 0], [5, 6], [7, 0], [9, 10]])
    );
    let e = error(&format!(
        "ak.from_parquet('{file}', columns='word', fill_null=0)"
    ));
    assert_eq!(e.class.name(), "TypeError");
    assert_eq!(
        e.message,
        "fill_null=0 does not fit column 'word' of string values"
    );
}

/// Values that must survive every format unchanged, with their row_splits dtype.
const ROUND_TRIPS: &[&str] = &[
    "tf.ragged.constant([[1, 2, 3], [], [4, 5]], dtype=tf.int64)",
    "tf.ragged.constant([[1, 2, 3], [], [4, 5]], row_splits_dtype=tf.int32)",
    "tf.ragged.constant([[[1.5, 2.5], []], [], [[3.5]]])",
    "tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)",
    "tf.ragged.constant([['the', 'cat'], [], ['naïve']])",
    "tf.ragged.constant([[True], [False, True]])",
    "tf.RaggedTensor.from_uniform_row_length(tf.ragged.constant([[1], [2, 3], [], [4]]), 2)",
    "tf.constant([[1, 2, 3], [4, 5, 6]])",
    "tf.constant([[[1.0, 2.0], [3.0, 4.0]]])",
    "tf.constant(['a', 'bc', ''])",
    "tf.constant([1.5, -2.5], dtype=tf.float64)",
    "tf.ragged.constant([[1, 2], [3]]).with_row_splits_dtype(tf.int32)[:, ::-1]",
];

#[test]
fn tensors_round_trip_through_parquet_and_arrow_ipc() {
    let dir = python_common::scratch("arrow-round-trips");
    for (i, value) in ROUND_TRIPS.iter().enumerate() {
        for (ext, write, read) in [
            (
                "parquet",
                "ak.to_parquet(x, '{p}')",
                "ak.from_parquet('{p}')",
            ),
            (
                "arrow",
                "ragtag.write_arrow(x, '{p}')",
                "ragtag.read_arrow('{p}')",
            ),
            (
                "arrows",
                "ragtag.write_arrow(x, '{p}', stream=True)",
                "ragtag.read_arrow('{p}')",
            ),
        ] {
            let p = dir.join(format!("v{i}.{ext}")).display().to_string();
            let original = format!("x = {value}\nx");
            let through = format!(
                "x = {value}\n{}\n{}",
                write.replace("{p}", &p),
                read.replace("{p}", &p)
            );
            assert_eq!(one(&original), one(&through), "{value} through .{ext}");
            if value.contains("agged") {
                let splits = |src: &str| one(&format!("{src}.row_splits"))["dtype"].clone();
                assert_eq!(
                    splits(&original),
                    splits(&through),
                    "{value} through .{ext}: row_splits dtype"
                );
            }
        }
    }
}

#[test]
fn files_ragtag_writes_read_back_in_pyarrow_unchanged() {
    let dir = python_common::scratch("arrow-for-pyarrow");
    let table = "{'tokens': tf.ragged.constant([[1, 2], [], [3]], dtype=tf.int64), \
                 'short': tf.ragged.constant([[1], [2, 3], []], row_splits_dtype=tf.int32), \
                 'words': tf.ragged.constant([['a', 'b'], ['c'], []]), \
                 'xy': tf.constant([[1.5, 2.5], [3.5, 4.5], [5.5, 6.5]]), \
                 'nested': tf.ragged.constant([[[1], [2, 3]], [], [[4]]]), \
                 'name': tf.constant(['x', 'y', 'z'])}";
    let want_types = json!({
        "tokens": "large_list<item: int64>",
        "short": "list<item: int32>",
        "words": "large_list<item: string>",
        "xy": "fixed_size_list<item: float>[2]",
        "nested": "large_list<item: large_list<item: int32>>",
        "name": "string",
    });
    let ours = one(table);
    for (ext, write) in [
        ("parquet", "ak.to_parquet"),
        ("arrow", "ragtag.write_arrow"),
    ] {
        let p = dir.join(format!("table.{ext}"));
        one(&format!("{write}({table}, '{}')\n1", p.display()));
        let out = python_common::run("formats/arrow_read.py", &[p.to_str().unwrap()]);
        let theirs: J = serde_json::from_str(&out).unwrap();
        for (name, col) in theirs.as_object().unwrap() {
            assert_eq!(
                col["values"], ours["value"][name]["value"],
                "{name} in .{ext}"
            );
            assert_eq!(col["type"], want_types[name], "{name} in .{ext}");
        }
        assert_eq!(theirs.as_object().unwrap().len(), 6);
    }
    // A stream too.
    let p = dir.join("table.arrows");
    one(&format!(
        "ragtag.write_arrow({table}, '{}', stream=True)\n1",
        p.display()
    ));
    let out = python_common::run("formats/arrow_read.py", &[p.to_str().unwrap()]);
    let theirs: J = serde_json::from_str(&out).unwrap();
    assert_eq!(theirs["words"]["values"], json!([["a", "b"], ["c"], []]));
}

#[test]
fn columns_and_row_groups_are_selected() {
    let file = fixture("lists_snappy.parquet");
    let v = one(&format!(
        "ak.from_parquet('{file}', columns=['score', 'tokens'], row_groups=[1])"
    ));
    assert_eq!(v["kind"], "dict");
    assert_eq!(v["value"]["score"]["value"], json!([2.5, 3.5]));
    assert_eq!(v["value"]["tokens"]["value"], json!([[4, 5], [6]]));
    let v = one(&format!(
        "ak.from_parquet('{file}', columns='tokens', row_groups=[-1, 0])"
    ));
    assert_eq!(v["value"], json!([[4, 5], [6], [1, 2, 3], []]));
    let v = one(&format!(
        "ak.from_parquet('{file}', columns='tokens', row_groups=[])"
    ));
    assert_eq!(v["value"], json!([]));
    let e = error(&format!("ak.from_parquet('{file}', row_groups=[2])"));
    assert_eq!(e.class.name(), "IndexError");
    assert!(
        e.message.contains("row group 2 is out of range"),
        "{}",
        e.message
    );
    assert!(e.message.ends_with("has 2 row groups"), "{}", e.message);
    let e = error(&format!(
        "ak.from_parquet('{}', columns='doc.nope')",
        fixture("struct.parquet")
    ));
    assert_eq!(e.class.name(), "KeyError");
    assert_eq!(
        e.hint.as_deref(),
        Some("its columns: doc.id, doc.tokens, lang")
    );
    let e = error(&format!(
        "ak.from_parquet('{}', columns='doc')",
        fixture("struct.parquet")
    ));
    assert_eq!(e.class.name(), "TypeError");
    assert!(e.hint.clone().unwrap().contains("'doc.tokens'"));
    let e = error(&format!(
        "ak.from_parquet('{}')",
        fixture("unsupported.parquet")
    ));
    assert_eq!(e.class.name(), "TypeError");
    assert!(
        e.message
            .starts_with("column 'when' has Arrow type Timestamp"),
        "{}",
        e.message
    );
}

#[test]
fn writers_check_their_input() {
    let dir = python_common::scratch("arrow-writer-errors");
    let p = dir.join("bad.parquet").display().to_string();
    let e = error(&format!("ak.to_parquet({{'a': [1, 2], 'b': [1]}}, '{p}')"));
    assert_eq!(e.class.name(), "ValueError");
    assert_eq!(
        e.message,
        "the columns of a table need one row count, but 'a' has 2 rows and 'b' has 1"
    );
    let e = error(&format!("ragtag.write_arrow(tf.constant(3), '{p}')"));
    assert_eq!(e.class.name(), "ValueError");
    let e = error("ak.to_parquet([1], 'no/such/dir/x.parquet')");
    assert_eq!(e.class.name(), "FileNotFoundError");
    let e = error("ak.from_parquet('no_such_file.parquet')");
    assert_eq!(e.class.name(), "FileNotFoundError");
    assert_eq!(
        e.message,
        "[Errno 2] No such file or directory: 'no_such_file.parquet'"
    );
    let e = error("ragtag.read_arrow('.')");
    assert_eq!(e.class.name(), "IsADirectoryError");
}

#[test]
fn a_read_past_the_memory_budget_fails_before_decoding_and_names_row_groups() {
    let dir = python_common::scratch("arrow-budget");
    let p = dir.join("big.parquet").display().to_string();
    // 4 row groups of 2,500 rows of 4 int64 values: 320 kB uncompressed.
    one(&format!(
        "ak.to_parquet(tf.reshape(tf.range(40000, dtype=tf.int64), [10000, 4]), '{p}', row_group_size=2500)\n1"
    ));
    let mut session = Session::new();
    session.memory_limit = Some(200_000);
    let e = session
        .execute(&format!("ak.from_parquet('{p}')"), &mut Collect::default())
        .unwrap_err();
    assert_eq!(e.class.name(), "ResourceExhaustedError");
    assert!(
        e.message
            .starts_with(&format!("reading all 4 row groups of '{p}' would allocate")),
        "{}",
        e.message
    );
    let hint = e.hint.clone().unwrap();
    assert!(
        hint.contains("row_groups=[i]") && hint.contains("the file has 4"),
        "{hint}"
    );
    // One row group at a time fits.
    let mut sink = Collect::default();
    session
        .execute(
            &format!("total = 0\nfor i in range(4):\n    total = total + tf.reduce_sum(ak.from_parquet('{p}', row_groups=[i]))\ntotal"),
            &mut sink,
        )
        .unwrap();
    let shown = format!("{:?}", sink.outputs);
    assert!(shown.contains("799980000"), "{shown}");
}

/// Every prefix and many single-byte corruptions of `file` read as an error or a value,
/// never a panic (an InternalError).
fn never_panics(file: &Path, read: &str) {
    let bytes = std::fs::read(file).unwrap();
    let dir = file.parent().unwrap().join("fuzz");
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join(file.file_name().unwrap());
    let mut session = Session::new();
    let step = (bytes.len() / 300).max(1);
    let mut variants: Vec<Vec<u8>> = (0..bytes.len())
        .step_by(step)
        .map(|n| bytes[..n].to_vec())
        .collect();
    for i in (0..bytes.len()).step_by(step) {
        for flip in [0xff_u8, 0x80, 0x01] {
            let mut b = bytes.clone();
            b[i] ^= flip;
            variants.push(b);
        }
    }
    for (k, v) in variants.iter().enumerate() {
        std::fs::write(&target, v).unwrap();
        let program = format!("{read}('{}')", target.display());
        if let Err(e) = session.execute(&program, &mut Collect::default()) {
            assert_ne!(
                e.class.name(),
                "InternalError",
                "variant {k}: {}",
                e.message
            );
            if k < bytes.len() / step {
                assert!(
                    e.message.contains(&target.display().to_string()),
                    "variant {k}: {}",
                    e.message
                );
            }
        }
    }
}

#[test]
fn corrupt_and_truncated_files_are_errors_never_panics() {
    never_panics(
        &fixtures().0.join("lists_snappy.parquet"),
        "ak.from_parquet",
    );
    never_panics(&fixtures().0.join("strings.parquet"), "ak.from_parquet");
    never_panics(&fixtures().0.join("chunks.arrow"), "ragtag.read_arrow");
    never_panics(&fixtures().0.join("chunks.arrows"), "ragtag.read_arrow");
}

/// Files whose metadata or page headers lie (tests/formats/hostile_parquet.py makes them
/// from a file ragtag wrote): a claimed count the data does not hold reads what is there or
/// fails cleanly; a claim that would make the parquet crate reserve gigabytes (a page's
/// uncompressed size, a page's value count, a dictionary's entries) fails the memory budget
/// before anything is decoded; a column chunk outside the file is a ValueError naming it.
#[test]
fn lying_metadata_is_refused_before_it_is_trusted() {
    let dir = python_common::scratch("hostile-parquet");
    let valid = dir.join("valid.parquet");
    let mut session = Session::new();
    session
        .execute(
            &format!(
                "ak.to_parquet({{'x': tf.ragged.constant([[1, 2, 3], [], [4, 5]] * 2000), \
                 's': tf.constant(['a', 'bb', 'a'] * 2000)}}, '{}')",
                valid.display()
            ),
            &mut Collect::default(),
        )
        .unwrap();
    let out = dir.join("hostile");
    let made = python_common::run(
        "formats/hostile_parquet.py",
        &[valid.to_str().unwrap(), out.to_str().unwrap()],
    );
    let expect = [
        ("rows_1e9", None),
        ("rows_2e62", None),
        ("column_values_huge", None),
        ("uncompressed_tiny", None),
        (
            "page_size_2g",
            Some(("ResourceExhaustedError", "would allocate 2.0 GiB")),
        ),
        (
            "page_values_2g",
            Some(("ResourceExhaustedError", "would allocate 4.0 GiB")),
        ),
        (
            "dictionary_2g",
            Some(("ResourceExhaustedError", "would allocate 18.0 GiB")),
        ),
        ("negative_offset", Some(("ValueError", "starts at byte -5"))),
        (
            "offset_past_end",
            Some(("ValueError", "runs past the end of the file")),
        ),
    ];
    assert_eq!(made.lines().count(), expect.len(), "{made}");
    for (name, error) in expect {
        let file = out.join(format!("{name}.parquet"));
        let mut session = Session::new();
        session.memory_limit = Some(1 << 30);
        let program = format!("y = ak.from_parquet('{}')\ny['s'].shape", file.display());
        let mut sink = Collect::default();
        match (session.execute(&program, &mut sink), error) {
            (Ok(()), None) => {
                let shown = format!("{:?}", sink.outputs);
                assert!(shown.contains("6000"), "{name}: {shown}");
            }
            (Err(e), Some((class, words))) => {
                assert_eq!(e.class.name(), class, "{name}: {}", e.message);
                assert!(e.message.contains(words), "{name}: {}", e.message);
                assert!(e.message.contains(name), "{name}: {}", e.message);
            }
            (got, _) => panic!("{name}: {:?}", got.map_err(|e| e.message.clone())),
        }
    }
}
