//! Python's builtins for classes and objects: `type`, `isinstance`, `issubclass`,
//! `getattr`/`setattr`/`hasattr`/`delattr`, `vars`, `super`, `property`, `staticmethod`,
//! `classmethod` and `object`.

use super::Builtin;
use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::registry;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_items, attr_set, builtin_type};
use crate::value::Value;
use ragtag_engine::Array;
use ragtag_engine::ExceptionClass;

/// Builtins for classes and objects.
pub static OBJECTS: &[Builtin] = &[
    Builtin::function("issubclass", "(cls, classinfo)", issubclass)
        .doc("Whether the class `cls` is `classinfo` or derives from it (or from one of a tuple of classes).")
        .examples(&["issubclass(bool, int)", "issubclass(KeyError, LookupError)"]),
    Builtin::function("getattr", "(obj, name, default=None)", getattr)
        .doc("The attribute `name` of `obj` (`obj.name`); `default` when it has none, if given.")
        .examples(&["getattr(tf.ragged.constant([[1], []]), 'shape')", "getattr(1, 'nope', 0)"]),
    Builtin::function("setattr", "(obj, name, value)", setattr)
        .doc("Sets the attribute `name` of an instance or a class (`obj.name = value`).")
        .examples(&["class A: pass\na = A()\nsetattr(a, 'x', 1)\na.x"]),
    Builtin::function("hasattr", "(obj, name)", hasattr)
        .doc("Whether `obj.name` exists.")
        .examples(&["hasattr(tf.ragged.constant([[1], []]), 'row_lengths')"]),
    Builtin::function("delattr", "(obj, name)", delattr)
        .doc("Removes the attribute `name` of an instance or a class (`del obj.name`).")
        .examples(&["class A: pass\na = A()\na.x = 1\ndelattr(a, 'x')\nhasattr(a, 'x')"]),
    Builtin::function("vars", "(object)", vars)
        .doc("The attributes an instance or a class holds itself, as a dict.")
        .examples(&["class A:\n    def __init__(self):\n        self.x = 1\nvars(A())"]),
    Builtin::function("super", "(type=None, object_or_type=None)", super_)
        .doc("In a method, the receiver seen as an instance of the next class in its order: `super().__init__(…)` runs the base class's `__init__`.")
        .examples(&["class A:\n    def f(self): return 1\nclass B(A):\n    def f(self): return super().f() + 1\nB().f()"]),
    Builtin::function("property", "(fget=None, fset=None, fdel=None, doc=None)", property)
        .doc("A computed attribute: `@property` on a method makes `obj.name` call it; `@name.setter` adds the method that `obj.name = v` calls.")
        .examples(&["property(lambda self: 1)"]),
    Builtin::function("staticmethod", "(function)", staticmethod)
        .doc("A function kept in a class that receives no instance: `@staticmethod`.")
        .examples(&["staticmethod(len)"]),
    Builtin::function("classmethod", "(function)", classmethod)
        .doc("A method that receives the class rather than the instance: `@classmethod`.")
        .examples(&["classmethod(len)"]),
    Builtin::function("object", "()", object)
        .doc("The base of every class; `object()` is a new featureless instance.")
        .examples(&["isinstance(3, object)"]),
    Builtin::method("BaseException.__init__", "(self, *args)", exception_init)
        .doc("Sets an exception's `args`: what `super().__init__(…)` in an exception class runs.")
        .examples(&["class E(ValueError):\n    def __init__(self, m):\n        super().__init__(m)\nE('x').args"]),
    Builtin::method("BaseException.__str__", "(self)", exception_str)
        .doc("An exception's message: its one argument, or the tuple of its arguments.")
        .examples(&["class E(ValueError):\n    def __str__(self):\n        return 'E: ' + super().__str__()\nstr(E('x'))"]),
    Builtin::method("BaseException.__repr__", "(self, /)", |it, a| {
        let v = a.value("self");
        it.prepare_shown(v, a.call)?;
        Ok(Value::str(crate::render::tf_text::repr_of(v)))
    })
        .doc("An exception as the REPL shows it: its class and its arguments.")
        .examples(&["ValueError('bad').__repr__()"]),
    Builtin::method("BaseException.with_traceback", "(self, tb, /)", |_, a| Ok(a.value("self").clone()))
        .doc("The exception itself: ragtag keeps no traceback objects, so `raise e.with_traceback(tb)` raises `e` again.")
        .examples(&["e = ValueError('x')\ne.with_traceback(None) is e"]),
    Builtin::method("BaseException.add_note", "(self, note, /)", add_note)
        .doc("Adds a line to the exception's `__notes__`, shown after its message when it is not caught.")
        .examples(&["e = ValueError('bad row')\ne.add_note('in data.csv, line 3')\ne.__notes__"]),
    Builtin::method("object.__init__", "(self, *args, **kwargs)", |_, a| {
        let extra = a.rest().len() + a.kwargs().len();
        crate::eval::construct::object_init(a.value("self"), extra, a.call)
    })
        .doc("Does nothing: what `super().__init__()` runs in a class with no other base (extra arguments are a TypeError when the class overrides `__init__`, or overrides neither it nor `__new__`).")
        .examples(&["class A:\n    def __init__(self):\n        super().__init__()\nA() is not None"]),
    Builtin::function("object.__new__", "(cls, *args, **kwargs)", |_, a| {
        let given: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
        crate::eval::construct::object_new(a.value("cls"), &given, a.kwargs().len(), a.call)
    })
        .doc("A new bare instance of the class `cls`, its `__init__` not called: what `super().__new__(cls)` runs in a class's `__new__`.")
        .examples(&["class A:\n    def __new__(cls):\n        return super().__new__(cls)\ntype(A()).__name__", "class B: pass\nisinstance(object.__new__(B), B)"]),
    Builtin::method("property.setter", "(self, fset)", property_setter)
        .doc("The property with `fset` as its setter: `@name.setter`.")
        .examples(&["class A:\n    @property\n    def x(self): return self._x\n    @x.setter\n    def x(self, v): self._x = v\na = A()\na.x = 2\na.x"]),
];

/// The builtin method at `path` (one of this file's).
pub fn method(path: &str) -> Value {
    registry().get(path).map_or(Value::None, Value::Builtin)
}

fn exception_init(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    if let Value::Instance(i) = a.value("self") {
        let args: Vec<Value> = a.rest().iter().map(|(v, _)| v.clone()).collect();
        attr_set(&i.attrs, "args", Value::tuple(args));
    }
    Ok(Value::None)
}

fn add_note(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let note = a.value("note");
    if !matches!(note, Value::Str(_)) {
        return Err(Error::new(
            ExceptionClass::TypeError,
            format!("note must be a str, not '{}'", note.type_name()),
        )
        .at(a.span("note")));
    }
    let this = a.value("self");
    let notes = match this {
        Value::Instance(i) => attr_get(&i.attrs, "__notes__"),
        v => crate::value::exception_chain::chain_of(v).notes,
    };
    match notes {
        Some(Value::List(l)) => l.with_mut(|items| items.push(note.clone())),
        Some(_) => {
            return Err(Error::new(
                ExceptionClass::TypeError,
                "Cannot add note: __notes__ is not a list",
            )
            .at(a.call))
        }
        None => {
            let list = Value::list(vec![note.clone()]);
            match this {
                Value::Instance(i) => attr_set(&i.attrs, "__notes__", list),
                v => crate::value::exception_chain::update_chain(v, |ch| ch.notes = Some(list)),
            }
        }
    }
    Ok(Value::None)
}

fn exception_str(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let v = a.value("self");
    let args = match v {
        Value::Instance(i) => attr_get(&i.attrs, "args"),
        Value::Exception(e) => return Ok(Value::str(&e.message)),
        _ => None,
    };
    Ok(Value::str(match args {
        Some(Value::Tuple(t)) if t.is_empty() => String::new(),
        Some(Value::Tuple(t)) if t.len() == 1 => {
            it.prepare_shown(&t[0], a.call)?;
            crate::render::tf_text::str_of(&t[0])
        }
        Some(other) => {
            it.prepare_shown(&other, a.call)?;
            crate::render::tf_text::repr_of(&other)
        }
        None => String::new(),
    }))
}

/// The dict `vars()` and `__dict__` show.
pub fn attrs_dict(attrs: &impl crate::value::class::AttrStore) -> Result<Value> {
    Value::dict(
        attr_items(attrs)
            .into_iter()
            .map(|(k, v)| (Value::str(k), v))
            .collect(),
    )
    .map_err(Error::from)
}

fn builtin(name: &str) -> Value {
    registry()
        .get(name)
        .map_or_else(|| builtin_type(name, "builtins"), Value::Builtin)
}

/// The type object `object`.
pub fn object_type() -> Value {
    builtin("object")
}

/// `type(v)`: the class of a value, as a type object.
pub fn type_of(v: &Value) -> Value {
    match v {
        Value::Instance(i) => Value::Class(i.class.clone()),
        Value::Class(_) | Value::ErrorClass(_) => builtin("type"),
        Value::Exception(e) => Value::ErrorClass(e.class),
        Value::None => builtin_type("NoneType", "builtins"),
        Value::Bool(_) => builtin("bool"),
        Value::Int(_) => builtin("int"),
        Value::Float(_) => builtin("float"),
        Value::Str(_) => builtin("str"),
        Value::List(_) => builtin("list"),
        Value::Tuple(_) => builtin("tuple"),
        Value::Dict(d) => match d.kind() {
            crate::value::DictKind::Plain => builtin("dict"),
            k => builtin(&format!("collections.{}", k.name())),
        },
        Value::Deque(_) => builtin("collections.deque"),
        Value::Bytes(b) if b.numpy => match registry().get("np.bytes_") {
            Some(b) => Value::Builtin(b),
            None => builtin_type("bytes_", "numpy"),
        },
        Value::Bytes(_) => builtin("bytes"),
        Value::ByteArray(_) => builtin("bytearray"),
        Value::Range(_) => builtin("range"),
        Value::Slice(_) => builtin("slice"),
        Value::Closure(_) => builtin_type("function", "builtins"),
        Value::Bound(_) => builtin_type("method", "builtins"),
        Value::Builtin(b) if crate::eval::classes::type_repr(b.name).is_some() => builtin("type"),
        Value::Builtin(_) | Value::Method(..) => {
            builtin_type("builtin_function_or_method", "builtins")
        }
        Value::Module(m) if m.as_ref() == "tf.RaggedTensor" => builtin("type"),
        Value::Module(_) => builtin_type("module", "builtins"),
        Value::Array(a) => match **a {
            Array::Ragged(_) => Value::Module(crate::value::ThinStr::from("tf.RaggedTensor")),
            Array::Dense(_) => builtin_type("EagerTensor", "tensorflow.python.framework.ops"),
        },
        Value::Sparse(_) => builtin("tf.SparseTensor"),
        Value::NdArray(_) => match registry().get("np.ndarray") {
            Some(b) => Value::Builtin(b),
            None => builtin_type("ndarray", "numpy"),
        },
        Value::Shape(_) => builtin_type("TensorShape", "tensorflow.python.framework.tensor_shape"),
        Value::DType(_) => builtin_type("DType", "tensorflow.python.framework.dtypes"),
        Value::NpType(t) if t.scalar => builtin("type"),
        Value::NpType(t) => builtin_type(&dtype_class_name(t.name()), "numpy.dtypes"),
        other => builtin_type(other.type_name(), "builtins"),
    }
}

/// Whether `v` is an instance of the class (or type object) `c`.
pub fn is_instance_of(v: &Value, c: &Value) -> Option<bool> {
    Some(match (v, c) {
        (_, Value::Builtin(b)) if b.name == "object" => true,
        (Value::Instance(i), _) => i.class.is_subclass_of(c),
        (Value::Class(_) | Value::ErrorClass(_), Value::Builtin(b)) if b.name == "type" => true,
        (Value::Builtin(x), Value::Builtin(t)) if t.name == "type" => {
            crate::eval::classes::type_repr(x.name).is_some()
        }
        (_, Value::Class(k)) => {
            crate::eval::operators::identical(&type_of(v), &Value::Class(k.clone()))
        }
        _ => return None,
    })
}

/// The classes of an `isinstance` argument, tuples flattened but unions kept whole.
pub(super) fn classes_of_shallow(v: &Value) -> Vec<Value> {
    match v {
        Value::Tuple(items) => items.iter().flat_map(classes_of_shallow).collect(),
        other => vec![other.clone()],
    }
}

pub(super) fn classes_of(v: &Value) -> Vec<Value> {
    match v {
        Value::Tuple(items) => items.iter().flat_map(classes_of).collect(),
        // `int | str` and `typing.Union[int, str]` check against each of their types.
        other => match super::union_type::union_args(other) {
            Some(args) => args.iter().flat_map(classes_of).collect(),
            None => vec![other.clone()],
        },
    }
}

fn issubclass(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let cls = a.value("cls");
    let classes = classes_of(a.value("classinfo"));
    let sub = |c: &Value| -> Result<bool> {
        Ok(match (cls, c) {
            (_, Value::Builtin(b)) if b.name == "object" => true,
            (Value::Class(k), _) => k.is_subclass_of(c),
            (Value::ErrorClass(x), Value::ErrorClass(y)) => y.catches(*x),
            (Value::Builtin(x), Value::Builtin(y)) => {
                std::ptr::eq(*x, *y) || (x.name == "bool" && y.name == "int")
            }
            (Value::Builtin(_) | Value::ErrorClass(_) | Value::Module(_), _) => false,
            _ => {
                return Err(Error::new(
                    ExceptionClass::TypeError,
                    "issubclass() arg 1 must be a class",
                )
                .at(a.span("cls")))
            }
        })
    };
    for c in &classes {
        if sub(c)? {
            return Ok(Value::Bool(true));
        }
    }
    Ok(Value::Bool(false))
}

fn name_arg(a: &Args, fname: &str) -> Result<String> {
    match a.value("name") {
        Value::Str(s) => Ok(s.to_string()),
        other => Err(Error::new(
            ExceptionClass::TypeError,
            format!(
                "{fname}(): attribute name must be string, not '{}'",
                other.type_name()
            ),
        )
        .at(a.span("name"))),
    }
}

fn getattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = name_arg(a, "getattr")?;
    match it.attribute(a.value("obj").clone(), &name, a.span("name")) {
        Err(e) if e.class == ExceptionClass::AttributeError => match a.given("default") {
            Some(d) => Ok(d.clone()),
            None => Err(e),
        },
        other => other,
    }
}

fn hasattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = name_arg(a, "hasattr")?;
    match it.attribute(a.value("obj").clone(), &name, a.span("name")) {
        Ok(_) => Ok(Value::Bool(true)),
        Err(e) if e.class == ExceptionClass::AttributeError => Ok(Value::Bool(false)),
        Err(e) => Err(e),
    }
}

fn setattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = name_arg(a, "setattr")?;
    it.store_attribute(a.value("obj"), &name, a.value("value").clone(), a.call)?;
    Ok(Value::None)
}

fn delattr(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let name = name_arg(a, "delattr")?;
    it.delete_attribute(a.value("obj"), &name, a.call)?;
    Ok(Value::None)
}

fn vars(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    it.vars_value(a.value("object"), a.span("object"))
}

fn super_(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    match (a.get("type"), a.get("object_or_type")) {
        (None, None) => it.super_value(a.call),
        (Some(t), Some(o)) => Ok(crate::eval::classes_wrapper(
            "super",
            vec![
                ("__thisclass__".into(), t.clone()),
                ("__self__".into(), o.clone()),
            ],
        )),
        _ => Err(Error::new(
            ExceptionClass::TypeError,
            "ragtag's super() takes no arguments or two",
        )
        .at(a.call)),
    }
}

fn property(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let p = crate::eval::classes_wrapper(
        "property",
        vec![
            ("fget".into(), a.value("fget").clone()),
            ("fset".into(), a.value("fset").clone()),
        ],
    );
    if let Value::Instance(i) = &p {
        if attr_get(&i.class.attrs, "setter").is_none() {
            attr_set(&i.class.attrs, "setter", method("property.setter"));
        }
    }
    Ok(p)
}

fn property_setter(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fget = match a.value("self") {
        Value::Instance(i) => attr_get(&i.attrs, "fget").unwrap_or(Value::None),
        _ => Value::None,
    };
    let p = crate::eval::classes_wrapper(
        "property",
        vec![
            ("fget".into(), fget),
            ("fset".into(), a.value("fset").clone()),
        ],
    );
    Ok(p)
}

fn staticmethod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(crate::eval::classes_wrapper(
        "staticmethod",
        vec![("__func__".into(), a.value("function").clone())],
    ))
}

fn classmethod(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(crate::eval::classes_wrapper(
        "classmethod",
        vec![("__func__".into(), a.value("function").clone())],
    ))
}

fn object(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    let Value::Class(c) = builtin_type("object", "builtins") else {
        unreachable!("builtin_type makes a class")
    };
    let i = crate::value::class::Instance::new(c);
    i.set_shown("<object object>".into(), "<object object>".into());
    Ok(Value::Instance(i))
}

/// NumPy's class of a dtype object: `Int64DType`, `Float16DType`, `BoolDType`,
/// `ObjectDType`, `UInt8DType`.
fn dtype_class_name(name: &str) -> String {
    let name = name.replacen("uint", "UInt", 1);
    let mut chars = name.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase());
    first.into_iter().chain(chars).collect::<String>() + "DType"
}
