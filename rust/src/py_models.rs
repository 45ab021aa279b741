//! pydantic models built from values the core already holds to their types, as pydantic's
//! `BaseModel.model_construct` builds them: no validation, the same instance.
//!
//! Validating the core's values again costs about 1.2 µs a model (a grade of a small trace
//! holds five to twenty), a fifth of grading a small trace; the values are right by
//! construction, and the engine tests compare every grade with the reference's. What
//! `model_construct` would do differently for a model (a `model_post_init`, private
//! attributes, extra fields kept, another field order) is refused when the models are
//! handed over, so a changed model fails loudly instead of being built wrong.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySet, PyString, PyType};
use pyo3::{ffi, intern};

/// One model class and its field names in declaration order (the order of `__dict__`).
pub struct Model {
    class: Py<PyType>,
    fields: Vec<Py<PyString>>,
    /// `__pydantic_fields_set__` of an instance: the fields the core gives, not defaulted.
    given: Py<PySet>,
}

impl Model {
    /// `class`, checked to have exactly `fields` (in order) and nothing `model_construct`
    /// would add; `defaulted` are the fields left at their defaults.
    pub fn new(
        py: Python<'_>,
        class: &Bound<'_, PyType>,
        fields: &[&str],
        defaulted: &[&str],
    ) -> PyResult<Self> {
        let name = class.qualname()?;
        let declared: Vec<String> = class
            .getattr(intern!(py, "__pydantic_fields__"))?
            .try_iter()?
            .map(|field| field?.extract())
            .collect::<PyResult<_>>()?;
        if declared != fields {
            return Err(PyTypeError::new_err(format!(
                "{name} has the fields {}; the compiled core builds {}: rebuild the core with \
                 `pip install -e .`",
                declared.join(", "),
                fields.join(", ")
            )));
        }
        let post_init = class.getattr(intern!(py, "__pydantic_post_init__"))?;
        let private = class.getattr(intern!(py, "__private_attributes__"))?;
        let extra = class
            .getattr(intern!(py, "model_config"))?
            .get_item(intern!(py, "extra"))
            .ok();
        let allows_extra = extra.is_some_and(|extra| extra.eq("allow").unwrap_or(true));
        if !post_init.is_none() || private.is_truthy()? || allows_extra {
            return Err(PyTypeError::new_err(format!(
                "{name} has a model_post_init, private attributes or extra fields, which the \
                 compiled core does not build: rebuild the core with `pip install -e .`"
            )));
        }
        let given = fields
            .iter()
            .filter(|field| !defaulted.contains(field))
            .map(|field| PyString::intern(py, field));
        Ok(Self {
            class: class.clone().unbind(),
            fields: fields
                .iter()
                .map(|f| PyString::intern(py, f).unbind())
                .collect(),
            given: PySet::new(py, given)?.unbind(),
        })
    }
}

/// What building an instance needs besides the model: `object.__new__`.
pub struct Builder {
    new: Py<PyAny>,
}

impl Builder {
    pub fn new(py: Python<'_>) -> PyResult<Self> {
        let object = py.get_type::<PyAny>();
        Ok(Self {
            new: object.getattr(intern!(py, "__new__"))?.unbind(),
        })
    }

    /// An instance of `model` holding `values`, one per field in declaration order.
    pub fn build<'py, const N: usize>(
        &self,
        py: Python<'py>,
        model: &Model,
        values: [Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyAny>> {
        if N != model.fields.len() {
            return Err(PyTypeError::new_err(format!(
                "{N} values for the {} fields of a model (a bug: report it)",
                model.fields.len()
            )));
        }
        let fields = PyDict::new(py);
        for (name, value) in model.fields.iter().zip(values) {
            fields.set_item(name.bind(py), value)?;
        }
        let instance = self.new.bind(py).call1((model.class.bind(py),))?;
        let given = copy_set(model.given.bind(py))?;
        set_generic(&instance, intern!(py, "__dict__"), &fields)?;
        set_generic(&instance, intern!(py, "__pydantic_fields_set__"), &given)?;
        let none = py.None().into_bound(py);
        set_generic(&instance, intern!(py, "__pydantic_extra__"), &none)?;
        set_generic(&instance, intern!(py, "__pydantic_private__"), &none)?;
        Ok(instance)
    }
}

/// `set(template)`: a new set of the same items (each instance has its own fields set).
fn copy_set<'py>(template: &Bound<'py, PySet>) -> PyResult<Bound<'py, PyAny>> {
    let py = template.py();
    // SAFETY: the template is a live set and the GIL is held; `PySet_New` returns a new
    // reference (or NULL with an exception set, which `from_owned_ptr_or_err` turns into it).
    unsafe { Bound::from_owned_ptr_or_err(py, ffi::PySet_New(template.as_ptr())) }
}

/// `object.__setattr__(instance, name, value)`: the generic setter, past the frozen model's
/// own `__setattr__` (which refuses every field), as `model_construct` sets them.
fn set_generic(
    instance: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
    value: &Bound<'_, PyAny>,
) -> PyResult<()> {
    // SAFETY: the three pointers belong to `Bound`s alive for the whole call and the GIL is
    // held (a `Bound` proves it); `PyObject_GenericSetAttr` only borrows them, taking its own
    // reference to `value` when it stores it.
    let status =
        unsafe { ffi::PyObject_GenericSetAttr(instance.as_ptr(), name.as_ptr(), value.as_ptr()) };
    if status == 0 {
        Ok(())
    } else {
        Err(PyErr::fetch(instance.py()))
    }
}
