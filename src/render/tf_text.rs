//! TensorFlow's text forms: what `print(x)`, `str(x)` and `repr(x)` show, with NumPy's array
//! formatting inside `tf.Tensor(...)`.

use super::numpy::{self, EDGEITEMS, THRESHOLD};
use crate::engine::{Array, Buffer, Sparse, Tensor};
use crate::value::Value;

/// Python's `repr` of a float (`100.0`, `0.1`, `1e-05`, `nan`, `inf`).
pub fn py_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = f.abs();
    if a != 0.0 && !(1e-4..1e16).contains(&a) {
        // Scientific notation with a two-digit exponent, as Python writes it.
        let s = format!("{f:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        return format!("{m}e{sign}{:02}", e.abs());
    }
    let s = format!("{f}");
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

/// A float32 as NumPy's `str(np.float32(x))` writes it: float32's shortest round-trip
/// digits, positional between 1e-4 and 1e16, otherwise scientific (`1e-05`, `1.5e+20`).
pub fn py_float32(f: f32) -> String {
    if !f.is_finite() {
        return py_float(f as f64);
    }
    let a = f.abs();
    if a == 0.0 || (1e-4..1e16).contains(&a) {
        let s = format!("{f}");
        return if s.contains('.') { s } else { format!("{s}.0") };
    }
    let s = format!("{f:e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{m}e{sign}{:02}", e.abs())
}

/// Python's `repr` of bytes: `b'abc'`, or `b"it's"` when it holds a single quote.
pub fn py_bytes(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            c if c as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(c as char),
            c => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote);
    out
}

/// Python's `repr` of a str.
pub fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// One element as a Python list shows it (`3`, `2.5`, `True`, `b'So'`).
fn element_py(d: &Buffer, i: usize) -> String {
    match d {
        Buffer::Bool(v) => if v[i] { "True" } else { "False" }.into(),
        Buffer::I32(v) => v[i].to_string(),
        Buffer::I64(v) => v[i].to_string(),
        Buffer::F32(v) => py_float32(v[i]),
        Buffer::F64(v) => py_float(v[i]),
        Buffer::Str(s) => py_bytes(s.get(i)),
    }
}

/// Writes `n` items as a Python list, eliding the middle (`...`) when `summarize` is set and
/// there are more than twice NumPy's edge items.
fn list_py(n: usize, summarize: bool, out: &mut String, item: &mut dyn FnMut(usize, &mut String)) {
    out.push('[');
    let cut = summarize && n > 2 * EDGEITEMS;
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push_str(", ");
        }
    };
    for i in 0..n {
        if cut && i == EDGEITEMS {
            sep(out);
            out.push_str("...");
        }
        if cut && (EDGEITEMS..n - EDGEITEMS).contains(&i) {
            continue;
        }
        sep(out);
        item(i, out);
    }
    out.push(']');
}

/// The dense block of `shape` at element `off` as nested Python lists.
fn block_py(d: &Buffer, shape: &[usize], off: usize, summarize: bool, out: &mut String) {
    match shape.split_first() {
        None => out.push_str(&element_py(d, off)),
        Some((&n, rest)) => {
            let stride: usize = rest.iter().product();
            list_py(n, summarize, out, &mut |i, out| {
                block_py(d, rest, off + i * stride, summarize, out)
            });
        }
    }
}

/// `<tf.RaggedTensor [[3, 1], [], [5, 9]]>`: TensorFlow's one-line form. Tensors of more
/// than NumPy's threshold of values show the first and last rows of each list around `...`,
/// as TensorFlow's NumPy-based printing does, so a million rows print in microseconds.
pub fn ragged_text(a: &Array) -> String {
    let mut s = String::from("<tf.RaggedTensor ");
    match a {
        Array::Ragged(_) => s.push_str(&numpy::ragged_value_text(a)),
        Array::Dense(t) => block_py(t.data(), t.shape(), 0, t.size() > THRESHOLD, &mut s),
    }
    s.push('>');
    s
}

fn shape_tuple(shape: &[usize]) -> String {
    match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// NumPy's `str(array)`: `[3 1 4 1]`, `[[1 2]\n [3 4]]`.
pub fn numpy_str(t: &Tensor) -> String {
    numpy::array_str(t)
}

/// `tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)`; a multi-line array starts on its own line.
pub fn tensor_str(t: &Tensor) -> String {
    let body = numpy::array_str(t);
    let sep = if body.contains('\n') { "\n" } else { "" };
    format!(
        "tf.Tensor({sep}{body}, shape={}, dtype={})",
        shape_tuple(t.shape()),
        t.dtype()
    )
}

/// `<tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 3, 6], dtype=int32)>`.
pub fn tensor_repr(t: &Tensor) -> String {
    let body = numpy::array_repr(t);
    let sep = if body.contains('\n') { "\n" } else { "" };
    format!(
        "<tf.Tensor: shape={}, dtype={}, numpy={sep}{body}>",
        shape_tuple(t.shape()),
        t.dtype()
    )
}

/// `SparseTensor(indices=tf.Tensor(…), values=tf.Tensor(…), dense_shape=tf.Tensor(…))`.
pub fn sparse_str(s: &Sparse) -> String {
    format!(
        "SparseTensor(indices={}, values={}, dense_shape={})",
        tensor_str(&s.indices_tensor()),
        tensor_str(s.values()),
        tensor_str(&Tensor::from_i64(s.dense_shape().to_vec()))
    )
}

fn shape_dims(dims: &[Option<usize>]) -> String {
    dims.iter()
        .map(|d| d.map_or("None".to_string(), |d| d.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Python's `format(x, '')`, what `"{}".format(x)` inserts: a dense tensor formats as its
/// NumPy array (`[[1 3]\n [0 0]]`, as `EagerTensor.__format__` does), anything else as `str`.
pub fn format_of(v: &Value) -> String {
    match v {
        Value::Array(a) => match &**a {
            Array::Dense(t) => numpy::array_str(t),
            Array::Ragged(_) => str_of(v),
        },
        _ => str_of(v),
    }
}

/// Python's `str(x)`: what `print` shows.
pub fn str_of(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Array(a) => match &**a {
            Array::Dense(t) => tensor_str(t),
            Array::Ragged(_) => ragged_text(a),
        },
        Value::Shape(dims) => {
            if dims.len() == 1 {
                format!("({},)", shape_dims(dims))
            } else {
                format!("({})", shape_dims(dims))
            }
        }
        Value::Exception(e) => e.message.clone(),
        Value::Sparse(s) => sparse_str(s),
        Value::NdArray(n) => super::numpy::nd_str(n),
        _ => repr_of(v),
    }
}

/// Python's `repr(x)`: what a bare expression shows in TensorFlow's own REPL.
pub fn repr_of(v: &Value) -> String {
    if crate::guard::too_deep() {
        // Nested deeper than the evaluation stack allows (Python raises RecursionError).
        return "...".into();
    }
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => py_float(*f),
        Value::Str(s) => py_str(s),
        Value::Literal(n) => repr_of(&crate::value::nested_to_value(n)),
        Value::NdArray(n) => super::numpy::nd_repr(n),
        Value::List(items) => format!(
            "[{}]",
            items.iter().map(repr_of).collect::<Vec<_>>().join(", ")
        ),
        Value::Tuple(items) => {
            if items.len() == 1 {
                format!("({},)", repr_of(&items[0]))
            } else {
                format!(
                    "({})",
                    items.iter().map(repr_of).collect::<Vec<_>>().join(", ")
                )
            }
        }
        Value::Dict(items) => format!(
            "{{{}}}",
            items
                .iter()
                .map(|(k, v)| format!("{}: {}", repr_of(k), repr_of(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Array(a) => match &**a {
            Array::Dense(t) => tensor_repr(t),
            Array::Ragged(_) => ragged_text(a),
        },
        Value::Sparse(s) => sparse_str(s),
        Value::Lod(l) => format!("LoDTensor(lod={:?}, data={})", l.lod(), numpy_str(l.data())),
        Value::Shape(dims) => format!("TensorShape([{}])", shape_dims(dims)),
        Value::DType(d) => format!("tf.{}", d.name()),
        Value::Builtin(b) => format!("<built-in function {}>", b.name),
        Value::Method(_, b) => format!("<bound method {}>", b.name),
        Value::Closure(c) => format!("<function {}>", c.name),
        Value::Module(m) => format!("<module '{m}'>"),
        Value::ErrorClass(c) => format!("<class '{}'>", c.name()),
        Value::Exception(e) => format!("{}({})", e.class.name(), py_str(&e.message)),
        Value::Opaque(o) => o.to_string(),
        Value::Spec(s) => {
            let shape = match &s.shape {
                Some(dims) => format!("[{}]", shape_dims(dims)),
                None => "None".into(),
            };
            if s.ragged {
                format!(
                    "RaggedTensorSpec(TensorShape({shape}), tf.{}, {}, tf.{})",
                    s.dtype.name(),
                    s.ragged_rank,
                    s.row_splits_dtype.name()
                )
            } else {
                let dims = match &s.shape {
                    Some(dims) if dims.len() == 1 => format!("({},)", shape_dims(dims)),
                    Some(dims) => format!("({})", shape_dims(dims)),
                    None => "None".into(),
                };
                format!(
                    "TensorSpec(shape={dims}, dtype=tf.{}, name=None)",
                    s.dtype.name()
                )
            }
        }
    }
}

/// Every `print` of TensorFlow's ragged tensor guide that ragtag can run, with the output the
/// guide shows (TensorFlow's own); the rest are checked on values built directly.
#[cfg(test)]
mod seed_prints {
    use super::*;
    use crate::engine::StringBuf;
    use crate::session::{Collect, Output, Session};

    /// What a program printed.
    #[track_caller]
    fn printed(src: &str) -> String {
        let mut s = Session::new();
        let mut sink = Collect::default();
        if let Err(e) = s.execute(src, &mut sink) {
            panic!("{src}\nfailed: {}", e.message);
        }
        sink.outputs
            .iter()
            .filter_map(|o| match o {
                Output::Print(t) => Some(t.as_str()),
                Output::Value(_) => None,
            })
            .collect::<String>()
    }

    const DIGITS: &str = "digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])\n";

    #[test]
    fn overview_ops() {
        let cases = [
            (
                "print(tf.add(digits, 3))",
                "<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
            ),
            (
                "print(tf.reduce_mean(digits, axis=1))",
                "tf.Tensor([2.25              nan 5.33333333 6.                nan], shape=(5,), dtype=float64)",
            ),
            (
                "print(digits[0])",
                "tf.Tensor([3 1 4 1], shape=(4,), dtype=int32)",
            ),
            (
                "print(digits[:, :2])",
                "<tf.RaggedTensor [[3, 1], [], [5, 9], [6], []]>",
            ),
            (
                "print(digits[:, -2:])",
                "<tf.RaggedTensor [[4, 1], [], [9, 2], [6], []]>",
            ),
            (
                "print(digits + 3)",
                "<tf.RaggedTensor [[6, 4, 7, 4], [], [8, 12, 5], [9], []]>",
            ),
            (
                "print(digits + tf.ragged.constant([[1, 2, 3, 4], [], [5, 6, 7], [8], []]))",
                "<tf.RaggedTensor [[4, 3, 7, 5], [], [10, 15, 9], [14], []]>",
            ),
        ];
        for (src, want) in cases {
            assert_eq!(
                printed(&format!("{DIGITS}{src}")),
                format!("{want}\n"),
                "{src}"
            );
        }
    }

    #[test]
    fn constructing_ragged_tensors() {
        let cases = [
            (
                "print(tf.ragged.constant([[\"Let's\", 'build', 'some', 'ragged', 'tensors', '!'], \
                 ['We', 'can', 'use', 'tf.ragged.constant', '.']]))",
                "<tf.RaggedTensor [[b\"Let's\", b'build', b'some', b'ragged', b'tensors', b'!'],\n \
                 [b'We', b'can', b'use', b'tf.ragged.constant', b'.']]>",
            ),
            (
                "print(tf.ragged.constant([[['I', 'have', 'a', 'cat'], ['His', 'name', 'is', 'Mat']], \
                 [['Do', 'you', 'want', 'to', 'come', 'visit'], [\"I'm\", 'free', 'tomorrow']]]))",
                "<tf.RaggedTensor [[[b'I', b'have', b'a', b'cat'], [b'His', b'name', b'is', b'Mat']],\n \
                 [[b'Do', b'you', b'want', b'to', b'come', b'visit'],\n  \
                 [b\"I'm\", b'free', b'tomorrow']]]>",
            ),
            (
                "print(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2], \
                 value_rowids=[0, 0, 0, 0, 2, 2, 3]))",
                "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
            ),
            (
                "print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2], row_lengths=[4, 0, 2, 1]))",
                "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
            ),
            (
                "print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2], row_splits=[0, 4, 4, 6, 7]))",
                "<tf.RaggedTensor [[3, 1, 4, 1], [], [5, 9], [2]]>",
            ),
            (
                "print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]))",
                "<tf.RaggedTensor [[b'Hi'], [b'How', b'are', b'you']]>",
            ),
            (
                "print(tf.ragged.constant([[[1, 2], [3]], [[4, 5]]]))",
                "<tf.RaggedTensor [[[1, 2], [3]], [[4, 5]]]>",
            ),
            (
                "print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).bounding_shape())",
                "tf.Tensor([2 3], shape=(2,), dtype=int64)",
            ),
            (
                "x = [[1, 3, -1, -1], [2, -1, -1, -1], [4, 5, 8, 9]]\n\
                 print(tf.RaggedTensor.from_tensor(x, padding=-1))",
                "<tf.RaggedTensor [[1, 3], [2], [4, 5, 8, 9]]>",
            ),
        ];
        for (src, want) in cases {
            assert_eq!(printed(src), format!("{want}\n"), "{src}");
        }
    }

    #[test]
    fn errors_print_their_message() {
        let src = "try:\n  tf.ragged.constant([['one', 'two'], [3, 4]])\nexcept ValueError as exception:\n  print(exception)\n\
                   try:\n  tf.ragged.constant(['A', ['B', 'C']])\nexcept ValueError as exception:\n  print(exception)\n";
        assert_eq!(
            printed(src),
            "Can't convert Python sequence with mixed types to Tensor.\n\
             all scalar values must have the same nesting depth\n"
        );
    }

    #[test]
    fn indexing_and_broadcasting() {
        let queries = "queries = tf.ragged.constant([['Who', 'is', 'George', 'Washington'], \
                       ['What', 'is', 'the', 'weather', 'tomorrow'], ['Goodnight']])\n\
                       print(queries[1])\nprint(queries[1, 2])\nprint(queries[1:])\n\
                       print(queries[:, :3])\nprint(queries[:, -2:])\n";
        assert_eq!(
            printed(queries),
            "tf.Tensor([b'What' b'is' b'the' b'weather' b'tomorrow'], shape=(5,), dtype=string)\n\
             tf.Tensor(b'the', shape=(), dtype=string)\n\
             <tf.RaggedTensor [[b'What', b'is', b'the', b'weather', b'tomorrow'], [b'Goodnight']]>\n\
             <tf.RaggedTensor [[b'Who', b'is', b'George'], [b'What', b'is', b'the'], [b'Goodnight']]>\n\
             <tf.RaggedTensor [[b'George', b'Washington'], [b'weather', b'tomorrow'], [b'Goodnight']]>\n"
        );
        let rt =
            "rt = tf.ragged.constant([[[1, 2, 3], [4]], [[5], [], [6]], [[7]], [[8, 9], [10]]])\n\
                  print(rt[1])\nprint(rt[3, 0])\nprint(rt[:, 1:3])\nprint(rt[:, -1:])\n";
        assert_eq!(
            printed(rt),
            "<tf.RaggedTensor [[5], [], [6]]>\n\
             tf.Tensor([8 9], shape=(2,), dtype=int32)\n\
             <tf.RaggedTensor [[[4]], [[], [6]], [], [[10]]]>\n\
             <tf.RaggedTensor [[[4]],\n\n [[6]],\n\n [[7]],\n\n [[10]]]>\n"
        );
        let cases = [
            (
                "x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])\ny = tf.ragged.constant([[1, 1], [2], [3, 3, 3]])\nprint(x + y)",
                "<tf.RaggedTensor [[2, 3], [5], [7, 8, 9]]>",
            ),
            (
                "x = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])\nprint(x + 3)",
                "<tf.RaggedTensor [[4, 5], [6], [7, 8, 9]]>",
            ),
            (
                "x = tf.ragged.constant([[1, 2], [3]])\ny = 3\nprint(x + y)",
                "<tf.RaggedTensor [[4, 5], [6]]>",
            ),
            (
                "x = tf.ragged.constant([[10, 87, 12], [19, 53], [12, 32]])\ny = [[1000], [2000], [3000]]\nprint(x + y)",
                "<tf.RaggedTensor [[1010, 1087, 1012], [2019, 2053], [3012, 3032]]>",
            ),
            (
                "x = tf.ragged.constant([[[1, 2], [3, 4], [5, 6]], [[7, 8]]], ragged_rank=1)\n\
                 y = tf.constant([[10]])\nprint(x + y)",
                "<tf.RaggedTensor [[[11, 12],\n  [13, 14],\n  [15, 16]], [[17, 18]]]>",
            ),
            (
                "x = tf.ragged.constant([[[[1], [2]], [], [[3]], [[4]]], [[[5], [6]], [[7]]]], ragged_rank=2)\n\
                 y = tf.constant([10, 20, 30])\nprint(x + y)",
                "<tf.RaggedTensor [[[[11, 21, 31],\n   [12, 22, 32]], [], [[13, 23, 33]], [[14, 24, 34]]],\n \
                 [[[15, 25, 35],\n   [16, 26, 36]], [[17, 27, 37]]]]>",
            ),
            (
                "rt = tf.ragged.constant([[1.0, 4.0, 3.0], [2.0]])\nprint(rt * 100.0)",
                "<tf.RaggedTensor [[100.0, 400.0, 300.0], [200.0]]>",
            ),
        ];
        for (src, want) in cases {
            assert_eq!(printed(src), format!("{want}\n"), "{src}");
        }
    }

    #[test]
    fn conversions_and_multi_line_tensors() {
        let src =
            "s = tf.ragged.constant([['Hi'], ['Welcome', 'to', 'the', 'fair'], ['Have', 'fun']])\n\
                   print(s.to_tensor(default_value='', shape=[None, 10]))\n";
        assert_eq!(
            printed(src),
            "tf.Tensor(\n\
             [[b'Hi' b'' b'' b'' b'' b'' b'' b'' b'' b'']\n \
             [b'Welcome' b'to' b'the' b'fair' b'' b'' b'' b'' b'' b'']\n \
             [b'Have' b'fun' b'' b'' b'' b'' b'' b'' b'' b'']], shape=(3, 10), dtype=string)\n"
        );
        // The 3x4 float32 average embedding: float32 digits, padded to a common width.
        let src = "print(tf.constant([[-0.14285272, 0.02908629, -0.16327512, -0.14529026], \
                   [-0.4479212, -0.35615516, 0.17110227, 0.2522229], \
                   [-0.1987868, -0.13152348, -0.0325102, 0.02125177]]))";
        assert_eq!(
            printed(src),
            "tf.Tensor(\n\
             [[-0.14285272  0.02908629 -0.16327512 -0.14529026]\n \
             [-0.4479212  -0.35615516  0.17110227  0.2522229 ]\n \
             [-0.1987868  -0.13152348 -0.0325102   0.02125177]], shape=(3, 4), dtype=float32)\n"
        );
    }

    #[test]
    fn multiple_ragged_dimensions() {
        let nested = "rt = tf.RaggedTensor.from_row_splits(values=tf.RaggedTensor.from_row_splits(\
                      values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 3, 5, 9, 10]), \
                      row_splits=[0, 1, 1, 5])\n\
                      print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                      print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n";
        assert_eq!(
            printed(nested),
            "<tf.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>\n\
             Shape: (3, None, None)\nNumber of partitioned dimensions: 2\n"
        );
        let splits = "rt = tf.RaggedTensor.from_nested_row_splits(flat_values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], \
                      nested_row_splits=([0, 1, 1, 5], [0, 3, 3, 5, 9, 10]))\nprint(rt)\n";
        assert_eq!(
            printed(splits),
            "<tf.RaggedTensor [[[10, 11, 12]], [], [[], [13, 14], [15, 16, 17, 18], [19]]]>\n"
        );
        let inner = "rt = tf.RaggedTensor.from_row_splits(values=[[1, 3], [0, 0], [1, 3], [5, 3], [3, 3], [1, 2]], \
                     row_splits=[0, 3, 4, 6])\n\
                     print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                     print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n\
                     print(\"Flat values shape: {}\".format(rt.flat_values.shape))\n\
                     print(\"Flat values:\\n{}\".format(rt.flat_values))\n";
        assert_eq!(
            printed(inner),
            "<tf.RaggedTensor [[[1, 3],\n  [0, 0],\n  [1, 3]], [[5, 3]], [[3, 3],\n                      [1, 2]]]>\n\
             Shape: (3, None, 2)\nNumber of partitioned dimensions: 1\nFlat values shape: (6, 2)\n\
             Flat values:\n[[1 3]\n [0 0]\n [1 3]\n [5 3]\n [3 3]\n [1 2]]\n"
        );
        let uniform = "rt = tf.RaggedTensor.from_uniform_row_length(values=tf.RaggedTensor.from_row_splits(\
                       values=[10, 11, 12, 13, 14, 15, 16, 17, 18, 19], row_splits=[0, 3, 5, 9, 10]), \
                       uniform_row_length=2)\n\
                       print(rt)\nprint(\"Shape: {}\".format(rt.shape))\n\
                       print(\"Number of partitioned dimensions: {}\".format(rt.ragged_rank))\n";
        assert_eq!(
            printed(uniform),
            "<tf.RaggedTensor [[[10, 11, 12], [13, 14]],\n [[15, 16, 17, 18], [19]]]>\n\
             Shape: (2, 2, None)\nNumber of partitioned dimensions: 2\n"
        );
    }

    #[test]
    fn python_lists_and_shapes() {
        let src = "rt = tf.ragged.constant([[1, 2], [3, 4, 5], [6], [], [7]])\n\
                   print(\"Python list:\", rt.to_list())\n\
                   print(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).shape)\n\
                   print(repr(tf.ragged.constant([['Hi'], ['How', 'are', 'you']]).shape))\n";
        assert_eq!(
            printed(src),
            "Python list: [[1, 2], [3, 4, 5], [6], [], [7]]\n(2, None)\nTensorShape([2, None])\n"
        );
    }

    /// `print(ragged_sentences.to_sparse())`, on the sparse tensor it returns.
    #[test]
    fn sparse_tensor_multi_line_indices() {
        let words = ["Hi", "Welcome", "to", "the", "fair", "Have", "fun"];
        let s = Sparse::new(
            vec![0, 0, 1, 0, 1, 1, 1, 2, 1, 3, 2, 0, 2, 1],
            Tensor::vector(Buffer::Str(StringBuf::from_strs(words))),
            vec![3, 4],
        )
        .unwrap();
        assert_eq!(
            str_of(&Value::Sparse(std::sync::Arc::new(s))),
            "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 0]\n [1 1]\n [1 2]\n [1 3]\n [2 0]\n [2 1]], \
             shape=(7, 2), dtype=int64), values=tf.Tensor([b'Hi' b'Welcome' b'to' b'the' b'fair' b'Have' b'fun'], \
             shape=(7,), dtype=string), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64))"
        );
    }

    /// The `.numpy()` prints of the guide show NumPy's `str` of the arrays.
    #[test]
    fn numpy_arrays_print_bare() {
        let v = Tensor::vector(Buffer::I32(vec![1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(format_of(&Value::tensor(v)), "[1 2 3 4 5 6 7]");
        let splits = Tensor::from_i64(vec![0, 2, 5, 6, 6, 7]);
        assert_eq!(numpy::array_str(&splits), "[0 2 5 6 6 7]");
    }

    /// `tf.ragged.range` over an empty batch prints `<tf.RaggedTensor []>`.
    #[test]
    fn empty_ragged() {
        use crate::engine::Ragged;
        let p = crate::engine::RowPartition::from_row_splits(vec![0], None).unwrap();
        let r = Ragged::new(vec![p], Tensor::vector(Buffer::I64(vec![]))).unwrap();
        assert_eq!(ragged_text(&Array::Ragged(r)), "<tf.RaggedTensor []>");
    }

    /// Big ragged tensors print like NumPy summarises: first and last three rows.
    #[test]
    fn big_ragged_tensors_are_summarised() {
        use crate::engine::Ragged;
        let r = Ragged::new(
            vec![crate::engine::RowPartition::from_uniform_row_length(2, 4000, None).unwrap()],
            Tensor::vector(Buffer::I32((0..4000).collect())),
        )
        .unwrap();
        assert_eq!(
            ragged_text(&Array::Ragged(r)),
            "<tf.RaggedTensor [[0, 1],\n [2, 3],\n [4, 5],\n ...,\n [3994, 3995],\n [3996, 3997],\n [3998, 3999]]>"
        );
    }
}
