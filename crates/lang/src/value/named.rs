//! What a `collections.namedtuple` instance is made of: a class marked as a named tuple,
//! whose `_fields` name the instance's attributes in order.

use super::class::{attr_get, Instance};
use super::Value;

/// The field names of a named tuple class's instance, or None for other instances.
pub fn fields(i: &Instance) -> Option<Vec<String>> {
    // A subclass of a named tuple class (`class Point(namedtuple(…))`) is one too.
    i.class.lookup("__namedtuple__")?;
    let Some(Value::Tuple(names)) = i.class.lookup("_fields") else {
        return None;
    };
    Some(
        names
            .iter()
            .map(|n| match n {
                Value::Str(s) => s.to_string(),
                _ => String::new(),
            })
            .collect(),
    )
}

/// The items of a named tuple instance in field order, or None for other instances.
pub fn items(i: &Instance) -> Option<Vec<Value>> {
    Some(
        fields(i)?
            .iter()
            .map(|f| attr_get(&i.attrs, f).unwrap_or(Value::None))
            .collect(),
    )
}
