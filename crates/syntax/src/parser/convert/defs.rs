//! `def` statements to the AST: decorators, and parameter lists with defaults, `*args`,
//! keyword-only and positional-only parameters and `**kwargs`.

use std::collections::HashSet;

use super::stmt::stmt;
use super::*;

impl Converter<'_> {
    pub(crate) fn def_stmt(&self, pair: Pair<'_, Rule>, start: Option<usize>) -> Result1<Stmt> {
        let mut span = span_of(&pair);
        if let Some(start) = start {
            span.start = start;
        }
        let mut it = children(pair);
        let name = it.next().expect("name").as_str().to_owned();
        let mut params = Vec::new();
        let mut body = Vec::new();
        let mut returns = None;
        for p in it {
            match p.as_rule() {
                Rule::def_params => params = self.param_list(p)?,
                Rule::return_ann => {
                    let e = p.into_inner().nth(1).expect("a return annotation");
                    returns = Some(Box::new(self.expr(e)?));
                }
                _ => body = self.suite(p)?,
            }
        }
        let kind = StmtKind::Def {
            name,
            params,
            body,
            returns,
        };
        Ok(stmt(kind, span))
    }

    /// Decorators with the `def` or `class` they apply to.
    pub(crate) fn decorated(&self, pair: Pair<'_, Rule>) -> Result1<Stmt> {
        let start = pair.as_span().start();
        let span = Span::new(start, span_of(&pair).end);
        let mut decorators = Vec::new();
        for p in pair.into_inner() {
            let def = match p.as_rule() {
                Rule::decorator => {
                    decorators
                        .push(self.expr(p.into_inner().next().expect("decorator expression"))?);
                    continue;
                }
                Rule::class_stmt => self.class_stmt(p)?,
                _ => self.def_stmt(p, None)?,
            };
            let def = Box::new(def);
            return Ok(stmt(StmtKind::Decorated { decorators, def }, span));
        }
        unreachable!("a decorated definition ends with `def` or `class`")
    }

    /// Parameters with their kinds, checked in the order Python requires: positional-only
    /// ones before `/`, then normal ones, `*args` or a bare `*`, keyword-only ones and
    /// `**kwargs` last. Messages are CPython's.
    pub(crate) fn param_list(&self, pair: Pair<'_, Rule>) -> Result1<Vec<Param>> {
        let mut params: Vec<Param> = Vec::new();
        // Names seen so far, and whether one had a default: a long list stays linear.
        let mut names = HashSet::new();
        let mut defaults = false;
        // A `*` or `*args` seen (and where a bare one was), a `/` seen, `**kwargs` seen.
        let (mut star, mut bare_star, mut slash, mut kwargs) = (false, None, false, false);
        let order = |msg: &str, span| {
            Err(SyntaxError::new(
                SyntaxErrorKind::ParameterOrder,
                msg.to_owned(),
                span,
            ))
        };
        for p in pair.into_inner() {
            let span = span_of(&p);
            if kwargs {
                return order("arguments cannot follow var-keyword argument", span);
            }
            let rule = p.as_rule();
            let mut it = p.into_inner();
            let (name, kind) = match rule {
                Rule::param_slash => {
                    if slash {
                        return order("/ may appear only once", span);
                    }
                    if star {
                        return order("/ must be ahead of *", span);
                    }
                    if params.is_empty() {
                        return order("at least one argument must precede /", span);
                    }
                    slash = true;
                    for q in &mut params {
                        q.kind = ParamKind::PositionalOnly;
                    }
                    continue;
                }
                Rule::param_star | Rule::def_param_star => {
                    if star {
                        return order("* argument may appear only once", span);
                    }
                    star = true;
                    match it.next() {
                        Some(n) => (n.as_str().to_owned(), ParamKind::VarArgs),
                        None => {
                            bare_star = Some(span);
                            continue;
                        }
                    }
                }
                Rule::param_kwargs | Rule::def_param_kwargs => {
                    if let Some(at) = bare_star.take() {
                        return order("named arguments must follow bare *", at);
                    }
                    kwargs = true;
                    let name = it.next().expect("a name after `**`").as_str().to_owned();
                    (name, ParamKind::VarKeywords)
                }
                _ => {
                    bare_star = None;
                    let name = it.next().expect("parameter name").as_str().to_owned();
                    let kind = if star {
                        ParamKind::KeywordOnly
                    } else {
                        ParamKind::Normal
                    };
                    (name, kind)
                }
            };
            let mut next = it.next();
            let mut annotation = None;
            if let Some(p) = next.take_if(|p| p.as_rule() == Rule::param_ann) {
                let e = p.into_inner().nth(1).expect("an annotation");
                annotation = Some(self.expr(e)?);
                next = it.next();
            }
            let default = next.map(|p| self.expr(p)).transpose()?;
            if !names.insert(name.clone()) {
                return Err(SyntaxError::new(
                    SyntaxErrorKind::DuplicateParameter,
                    format!("duplicate argument '{name}' in function definition"),
                    span,
                ));
            }
            if kind == ParamKind::Normal {
                defaults |= default.is_some();
                if default.is_none() && defaults {
                    return Err(SyntaxError::new(
                        SyntaxErrorKind::NonDefaultAfterDefault,
                        "non-default argument follows default argument",
                        span,
                    ));
                }
            }
            params.push(Param {
                name,
                default,
                kind,
                annotation,
            });
        }
        if let Some(at) = bare_star {
            return order("named arguments must follow bare *", at);
        }
        Ok(params)
    }
}
