//! NumPy's two faces of an element type: the scalar type (`np.float32`, shown as
//! `<class 'numpy.float32'>`, callable to make a NumPy scalar) and the dtype object
//! (`np.dtype('float32')`, an array's `.dtype`, shown as `dtype('float32')` and printed as
//! `float32`). Both compare equal to TensorFlow's dtype of the same element (`tf.float32 ==
//! np.float32` is True in TensorFlow) and are accepted wherever a dtype is.

use ragtag_engine::DType;

/// A NumPy element type: the scalar type or the dtype object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NpType {
    /// The element.
    pub dtype: DType,
    /// True for the scalar type (`np.float32`), false for the dtype object
    /// (`np.dtype('float32')`).
    pub scalar: bool,
}

impl NpType {
    /// The scalar type `np.NAME`.
    pub fn scalar(dtype: DType) -> NpType {
        NpType {
            dtype,
            scalar: true,
        }
    }

    /// The dtype object `np.dtype(NAME)`.
    pub fn dtype(dtype: DType) -> NpType {
        NpType {
            dtype,
            scalar: false,
        }
    }

    /// NumPy's name of the element: `int64`, `bool`, `object` for ragtag's arrays of
    /// strings (NumPy's object arrays of bytes).
    pub fn name(self) -> &'static str {
        match self.dtype {
            DType::String if self.scalar => "str_",
            DType::String => "object",
            d => d.name(),
        }
    }

    /// Python's `repr`: `<class 'numpy.float32'>` or `dtype('float32')` (bfloat16, which
    /// NumPy knows through ml_dtypes, shows as `dtype(bfloat16)`).
    pub fn repr(self) -> String {
        match (self.scalar, self.dtype) {
            (true, _) => format!("<class 'numpy.{}'>", self.name()),
            (false, DType::BFloat16) => "dtype(bfloat16)".to_string(),
            (false, DType::String) => "dtype('O')".to_string(),
            (false, _) => format!("dtype('{}')", self.name()),
        }
    }

    /// Python's `str`: the scalar type's repr, or the dtype's name.
    pub fn str(self) -> String {
        if self.scalar {
            self.repr()
        } else {
            self.name().to_string()
        }
    }

    /// NumPy's kind character: `b` bool, `i` signed, `u` unsigned, `f` float, `O` object.
    pub fn kind(self) -> &'static str {
        match self.dtype {
            DType::Bool => "b",
            DType::String => "O",
            d if d.is_unsigned() => "u",
            d if d.is_int() => "i",
            DType::BFloat16 => "V",
            _ => "f",
        }
    }

    /// NumPy's one-letter type code (`dtype.char`).
    pub fn char(self) -> &'static str {
        match self.dtype {
            DType::Bool => "?",
            DType::Int8 => "b",
            DType::UInt8 => "B",
            DType::Int16 => "h",
            DType::UInt16 => "H",
            DType::Int32 => "i",
            DType::UInt32 => "I",
            DType::Int64 => "l",
            DType::UInt64 => "L",
            DType::Float16 => "e",
            DType::BFloat16 => "E",
            DType::Float32 => "f",
            DType::Float64 => "d",
            DType::String => "O",
        }
    }

    /// The bytes of one element (`dtype.itemsize`; 8 for an object pointer).
    pub fn itemsize(self) -> usize {
        match self.dtype {
            DType::String => 8,
            d => d.item_bytes(),
        }
    }

    /// NumPy's array-protocol string (`dtype.str`): byte order, kind, size: `<i8`, `|b1`.
    pub fn protocol_str(self) -> String {
        match self.dtype {
            DType::String => "|O".to_string(),
            _ if self.itemsize() == 1 => format!("|{}1", self.kind()),
            _ => format!("<{}{}", self.kind(), self.itemsize()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_faces_show_as_numpy_shows_them() {
        assert_eq!(
            NpType::scalar(DType::Float32).repr(),
            "<class 'numpy.float32'>"
        );
        assert_eq!(NpType::dtype(DType::Int64).repr(), "dtype('int64')");
        assert_eq!(NpType::dtype(DType::Int64).str(), "int64");
        assert_eq!(NpType::dtype(DType::Bool).protocol_str(), "|b1");
        assert_eq!(NpType::dtype(DType::UInt16).protocol_str(), "<u2");
        assert_eq!(NpType::dtype(DType::String).repr(), "dtype('O')");
        assert_eq!(NpType::dtype(DType::String).protocol_str(), "|O");
    }
}
