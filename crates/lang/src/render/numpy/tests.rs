//! NumPy's printing checked against what NumPy prints.

use super::*;
use ragtag_engine::StringBuf;

fn f64s(shape: &[usize], v: &[f64]) -> Tensor {
    Tensor::new(shape.to_vec(), Buffer::F64(v.to_vec().into())).unwrap()
}
fn f32s(shape: &[usize], v: &[f32]) -> Tensor {
    Tensor::new(shape.to_vec(), Buffer::F32(v.to_vec().into())).unwrap()
}

#[test]
fn floats_align_on_the_point_and_pad_nan() {
    let t = f64s(&[5], &[2.25, f64::NAN, 16.0 / 3.0, 6.0, f64::NAN]);
    assert_eq!(
        array_str(&t),
        "[2.25              nan 5.33333333 6.                nan]"
    );
}

#[test]
fn float32_uses_its_own_shortest_digits() {
    let t = f32s(
        &[3, 4],
        &[
            -0.14285272,
            0.02908629,
            -0.16327512,
            -0.14529026,
            -0.4479212,
            -0.35615516,
            0.17110227,
            0.2522229,
            -0.1987868,
            -0.13152348,
            -0.0325102,
            0.02125177,
        ],
    );
    assert_eq!(
        array_str(&t),
        "[[-0.14285272  0.02908629 -0.16327512 -0.14529026]\n \
         [-0.4479212  -0.35615516  0.17110227  0.2522229 ]\n \
         [-0.1987868  -0.13152348 -0.0325102   0.02125177]]"
    );
}

#[test]
fn scientific_when_magnitudes_differ_widely() {
    assert_eq!(array_str(&f64s(&[2], &[1e-5, 1.0])), "[1.e-05 1.e+00]");
    assert_eq!(array_str(&f64s(&[2], &[1.5e-5, 1.0])), "[1.5e-05 1.0e+00]");
    assert_eq!(array_str(&f64s(&[2], &[1.0, 2000.0])), "[1.e+00 2.e+03]");
    assert_eq!(array_str(&f64s(&[2], &[1e8, 1.0])), "[1.e+08 1.e+00]");
    assert_eq!(
        array_str(&f64s(&[3], &[1.0, f64::NAN, 1e-7])),
        "[1.e+00    nan 1.e-07]"
    );
}

#[test]
fn non_finite_only() {
    assert_eq!(
        array_str(&f64s(&[3], &[f64::NAN, f64::NEG_INFINITY, f64::INFINITY])),
        "[ nan -inf  inf]"
    );
}

#[test]
fn bools_pad_true() {
    let t = Tensor::new(vec![3], Buffer::Bool(vec![true, true, false].into())).unwrap();
    assert_eq!(array_str(&t), "[ True  True False]");
    assert_eq!(array_repr(&t), "array([ True,  True, False])");
}

#[test]
fn long_vectors_wrap_at_75() {
    let t = Tensor::new(vec![30], Buffer::I64((0..30).map(|i| i * 1000).collect())).unwrap();
    let s = array_str(&t);
    assert!(s.lines().all(|l| l.len() <= 75), "{s}");
    assert_eq!(
        s,
        "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000\n \
         12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000\n \
         24000 25000 26000 27000 28000 29000]"
    );
}

#[test]
fn big_arrays_are_summarised() {
    let t = Tensor::new(vec![10_000], Buffer::I32((0..10_000).collect())).unwrap();
    assert_eq!(array_str(&t), "[   0    1    2 ... 9997 9998 9999]");
    let m = Tensor::new(vec![100, 100], Buffer::I32((0..10_000).collect())).unwrap();
    assert_eq!(
        array_str(&m),
        "[[   0    1    2 ...   97   98   99]\n [ 100  101  102 ...  197  198  199]\n \
         [ 200  201  202 ...  297  298  299]\n ...\n [9700 9701 9702 ... 9797 9798 9799]\n \
         [9800 9801 9802 ... 9897 9898 9899]\n [9900 9901 9902 ... 9997 9998 9999]]"
    );
}

#[test]
fn reprs_name_the_dtype_unless_implied() {
    let t = Tensor::new(vec![2, 2], Buffer::I32(vec![1, 2, 3, 4].into())).unwrap();
    assert_eq!(
        array_repr(&t),
        "array([[1, 2],\n       [3, 4]], dtype=int32)"
    );
    let t = Tensor::new(vec![2], Buffer::I64(vec![1, 2].into())).unwrap();
    assert_eq!(array_repr(&t), "array([1, 2])");
    let t = Tensor::new(vec![0], Buffer::I64(vec![].into())).unwrap();
    assert_eq!(array_repr(&t), "array([], dtype=int64)");
    let t = Tensor::new(vec![2, 0], Buffer::I32(vec![].into())).unwrap();
    assert_eq!(array_repr(&t), "array([], shape=(2, 0), dtype=int32)");
    assert_eq!(array_str(&t), "[]");
}

#[test]
fn string_arrays_are_object_arrays_of_bytes() {
    let words = [
        "I",
        "like",
        "ragged",
        "tensors.",
        "Oh",
        "yeah?",
        "What",
        "can",
        "you",
        "use",
        "them",
        "for?",
        "Processing",
        "variable",
        "length",
        "data!",
        "I",
        "like",
        "cheese.",
        "Do",
        "you?",
        "Yes.",
        "I",
        "do.",
    ];
    let t = Tensor::vector(Buffer::Str(StringBuf::from_strs(words)));
    assert_eq!(
        array_repr(&t),
        "array([b'I', b'like', b'ragged', b'tensors.', b'Oh', b'yeah?', b'What',\n       \
         b'can', b'you', b'use', b'them', b'for?', b'Processing',\n       \
         b'variable', b'length', b'data!', b'I', b'like', b'cheese.', b'Do',\n       \
         b'you?', b'Yes.', b'I', b'do.'], dtype=object)"
    );
}
