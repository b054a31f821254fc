//! Round trips through `.npy` bytes, and truncated or garbled files as errors, never panics.

use super::*;
use ragtag_engine::{Buffer, StringBuf};

fn tensor(shape: Vec<usize>, data: Buffer) -> Tensor {
    Tensor::new(shape, data).unwrap()
}

fn samples() -> Vec<Tensor> {
    vec![
        tensor(vec![], Buffer::I64(vec![7i64].into())),
        tensor(vec![3], Buffer::Bool(vec![true, false, true].into())),
        tensor(vec![2, 2], Buffer::I32(vec![1, -2, 3, i32::MIN].into())),
        tensor(
            vec![2, 1, 2],
            Buffer::F64(vec![0.1, -0.0, f64::MAX, 1e-300].into()),
        ),
        tensor(vec![2], Buffer::F32(vec![1.5f32, f32::INFINITY].into())),
        tensor(
            vec![3],
            Buffer::Str(StringBuf::from_strs(["", "héllo", "✓"])),
        ),
        tensor(vec![0, 4], Buffer::I64(Vec::<i64>::new().into())),
    ]
}

#[test]
fn npy_bytes_read_back_equal() {
    for t in samples() {
        let bytes = npy_bytes(&t, "test").unwrap();
        assert_eq!(parse_npy(&bytes, "x.npy").unwrap(), t);
    }
}

#[test]
fn non_utf8_strings_are_bytes_arrays() {
    let mut s = StringBuf::new();
    s.push(b"\xff\x00a");
    s.push(b"b");
    let t = tensor(vec![2], Buffer::Str(s));
    let bytes = npy_bytes(&t, "test").unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("'|S3'"));
    // NumPy strips trailing NULs, not interior ones.
    assert_eq!(parse_npy(&bytes, "x.npy").unwrap(), t);
}

#[test]
fn every_truncation_and_corruption_is_an_error_not_a_panic() {
    for t in samples() {
        let bytes = npy_bytes(&t, "test").unwrap();
        for cut in 0..bytes.len() {
            // Cutting into the data is an error unless the array has no data bytes.
            let r = parse_npy(&bytes[..cut], "x.npy");
            if cut < 64 || t.size() > 0 {
                assert!(r.is_err(), "cut at {cut} of {t:?}");
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            // xorshift: a fixed, reproducible stream of corruptions.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mut broken = bytes.clone();
            let at = (state as usize) % broken.len();
            broken[at] = (state >> 32) as u8;
            let _ = parse_npy(&broken, "x.npy");
        }
    }
}

#[test]
fn hostile_shapes_are_value_errors() {
    for shape in [
        "(18446744073709551615, 18446744073709551615)",
        "(4294967296, 4294967296, 16)",
        "(1000000,)",
    ] {
        let dict = format!("{{'descr': '<i8', 'fortran_order': True, 'shape': {shape}, }}\n");
        let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
        bytes.extend_from_slice(&(dict.len() as u16).to_le_bytes());
        bytes.extend_from_slice(dict.as_bytes());
        bytes.extend_from_slice(&[0; 16]);
        let err = parse_npy(&bytes, "x.npy").unwrap_err();
        assert_eq!(
            err.class,
            ExceptionClass::ValueError,
            "{shape}: {}",
            err.message
        );
    }
}

#[test]
fn npz_archives_round_trip_and_garbage_is_an_error() {
    let dir = std::env::temp_dir().join(format!("ragtag-npz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let arrays: Vec<(String, Tensor)> = samples()
        .into_iter()
        .enumerate()
        .map(|(i, t)| (format!("arr_{i}"), t))
        .collect();
    for compressed in [false, true] {
        let path = dir.join(format!("a{compressed}.npz"));
        write_npz(&path, &arrays, compressed).unwrap();
        assert_eq!(load(&path).unwrap(), Loaded::Archive(arrays.clone()));
        let bytes = std::fs::read(&path).unwrap();
        for cut in (0..bytes.len()).step_by(7) {
            assert!(
                read_npz(bytes[..cut].to_vec(), "a.npz").is_err(),
                "cut {cut}"
            );
        }
        for at in (0..bytes.len()).step_by(3) {
            let mut broken = bytes.clone();
            broken[at] ^= 0x5a;
            let _ = read_npz(broken, "a.npz");
        }
    }
    let junk = dir.join("junk.npy");
    std::fs::write(&junk, b"not numpy at all").unwrap();
    let err = load(&junk).unwrap_err();
    assert_eq!(err.class, ExceptionClass::ValueError);
    assert!(err.message.contains("junk.npy"), "{}", err.message);
    std::fs::remove_dir_all(&dir).unwrap();
}
