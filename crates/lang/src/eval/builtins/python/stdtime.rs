//! `time`'s calendar: `gmtime`, `localtime` (the machine's zone, read from its TZif file),
//! `mktime`, `strftime` with the common directives, `asctime` and `ctime`; and the CPU
//! clocks `process_time` and `thread_time` (also in nanoseconds).

use crate::diagnostic::{Error, Result};
use crate::eval::args::Args;
use crate::eval::builtins::Builtin;
use crate::eval::Interp;
use crate::value::class::{attr_get, attr_set};
use crate::value::Value;
use ragtag_engine::ExceptionClass;

/// The calendar functions of `time`.
pub static STDTIME: &[Builtin] = &[
    Builtin::function("time.gmtime", "(secs=None)", gmtime)
        .doc("A `time.struct_time` of `secs` since the epoch (now when None) in UTC.")
        .examples(&["import time\ntime.gmtime(0)"]),
    Builtin::function("time.localtime", "(secs=None)", localtime)
        .doc("A `time.struct_time` of `secs` since the epoch (now when None) in this machine's time zone.")
        .examples(&["import time\ntime.localtime(0).tm_year in (1969, 1970)"]),
    Builtin::function("time.strftime", "(format, t=None, /)", strftime)
        .doc("The time `t` (a struct_time or 9-tuple; now, local, when None) as text: %Y %m %d %H %M %S %I %j %a %A %b %B %p %y %w %Z %%.")
        .examples(&["import time\ntime.strftime('%Y-%m-%d %H:%M:%S %a %b %j', time.gmtime(10**9))"]),
    Builtin::function("time.process_time", "()", process_time)
        .doc("The CPU time this process has used, in seconds (only differences mean anything).")
        .examples(&["import time\ntime.process_time() >= 0"]),
    Builtin::function("time.process_time_ns", "()", |_, _| Ok(cpu_ns(rustix::time::ClockId::ProcessCPUTime)))
        .doc("time.process_time in nanoseconds, as an int.")
        .examples(&["import time\ntime.process_time_ns() >= 0"]),
    Builtin::function("time.thread_time", "()", |_, _| {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        Ok(Value::Float(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9))
    })
    .doc("The CPU time the evaluating thread has used, in seconds (only differences mean anything).")
    .examples(&["import time\ntime.thread_time() >= 0"]),
    Builtin::function("time.thread_time_ns", "()", |_, _| Ok(cpu_ns(rustix::time::ClockId::ThreadCPUTime)))
        .doc("time.thread_time in nanoseconds, as an int.")
        .examples(&["import time\ntime.thread_time_ns() >= 0"]),
    Builtin::function("time.asctime", "(t=None, /)", asctime)
        .doc("The time `t` (a struct_time or 9-tuple; now, local, when None) as C's asctime writes it: `Thu Jan  1 00:00:00 1970`.")
        .examples(&["import time\ntime.asctime(time.gmtime(0))"]),
    Builtin::function("time.ctime", "(secs=None, /)", ctime)
        .doc("`secs` since the epoch (now when None) in local time, as asctime writes it.")
        .examples(&["import time\nlen(time.ctime(0))"]),
    Builtin::function("time.mktime", "(t, /)", mktime)
        .doc("The seconds since the epoch, as a float, of the local time `t` (a struct_time or 9-tuple): the inverse of localtime.")
        .examples(&["import time\ntime.mktime(time.localtime(10**9))"]),
];

fn cpu_ns(clock: rustix::time::ClockId) -> Value {
    let t = rustix::time::clock_gettime(clock);
    Value::Int(t.tv_sec as i64 * 1_000_000_000 + t.tv_nsec as i64)
}

/// C's asctime of a time tuple's fields.
fn asctime_text(f: &[i64; 9]) -> String {
    let day = DAYS[f[6].rem_euclid(7) as usize];
    let month = MONTHS[(f[1] - 1).clamp(0, 11) as usize];
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        &day[..3],
        &month[..3],
        f[2],
        f[3],
        f[4],
        f[5],
        f[0]
    )
}

fn asctime(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let fields = match a.value("t") {
        Value::None => local_fields(seconds_now()),
        v => time_tuple(it, &v.clone(), a)?.0,
    };
    Ok(Value::str(asctime_text(&fields)))
}

fn ctime(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    Ok(Value::str(asctime_text(&local_fields(seconds(a)?))))
}

/// The local time's fields at `t`.
fn local_fields(t: i64) -> [i64; 9] {
    let (offset, isdst, _) = zone_at(t);
    time_fields(t, offset, isdst)
}

fn seconds_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Days since 1970-01-01 of a date (Hinnant's days_from_civil; months past 12 carry over).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let (y, m) = (y + (m - 1).div_euclid(12), (m - 1).rem_euclid(12) + 1);
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn mktime(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    // Fields out of range carry over as C's mktime normalizes them (month 14 is February
    // of the next year, day 0 the last of the month before, minute -90 an hour and a half
    // back).
    let f = time_tuple_fields(it, a.value("t"), a, false)?.0;
    let overflow = || {
        Error::new(
            ExceptionClass::OverflowError,
            "mktime argument out of range",
        )
        .at(a.call)
    };
    let days = days_from_civil(f[0], f[1], 1)
        .checked_add(f[2] - 1)
        .ok_or_else(overflow)?;
    let local = [(days, 86_400), (f[3], 3600), (f[4], 60), (f[5], 1)]
        .iter()
        .try_fold(0i64, |acc, (n, unit)| {
            acc.checked_add(n.checked_mul(*unit)?)
        })
        .ok_or_else(overflow)?;
    // The offset at the UTC instant found with the offset there (twice, across a change).
    let mut t = local - zone_at(local).0;
    t = local - zone_at(t).0;
    Ok(Value::Float(t as f64))
}

const DAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn process_time(_: &mut Interp<'_>, _: &Args) -> Result<Value> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Ok(Value::Float(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9))
}

/// The seconds argument: now when absent or None, else an int or float (floored).
fn seconds(a: &Args) -> Result<i64> {
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    };
    match a.value("secs") {
        Value::None => Ok(now()),
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Float(f) if f.is_nan() => Err(a.err_at(
            "secs",
            Error::new(
                ExceptionClass::ValueError,
                "Invalid value NaN (not a number)",
            ),
        )),
        Value::Float(f) if f.abs() < 6.7e16 => Ok(f.floor() as i64),
        Value::Float(_) | Value::BigInt(_) => Err(a.err_at(
            "secs",
            Error::new(
                ExceptionClass::OverflowError,
                "timestamp out of range for platform time_t",
            ),
        )),
        other => Err(a.err_at(
            "secs",
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                ),
            ),
        )),
    }
}

/// (year, month, day) of a count of days since 1970-01-01 (Hinnant's civil_from_days).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

/// The day of the year (1-based) of a date.
fn yday(y: i64, m: i64, d: i64) -> i64 {
    const BEFORE: [i64; 12] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];
    BEFORE[(m - 1).clamp(0, 11) as usize] + d + i64::from(m > 2 && leap(y))
}

/// A struct_time's nine fields of `t` seconds shifted by `offset`.
fn time_fields(t: i64, offset: i64, isdst: i64) -> [i64; 9] {
    let local = t + offset;
    let (days, secs) = (local.div_euclid(86_400), local.rem_euclid(86_400));
    let (y, m, d) = civil(days);
    [
        y,
        m,
        d,
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        (days + 3).rem_euclid(7),
        yday(y, m, d),
        isdst,
    ]
}

/// A struct_time of `t` seconds shifted by `offset`, with its zone's name and dst flag.
fn struct_time(t: i64, offset: i64, isdst: i64, zone: &str) -> Result<Value> {
    const NAMES: [&str; 9] = [
        "tm_year", "tm_mon", "tm_mday", "tm_hour", "tm_min", "tm_sec", "tm_wday", "tm_yday",
        "tm_isdst",
    ];
    let values = time_fields(t, offset, isdst);
    let fields: Vec<(&str, Value)> = NAMES
        .iter()
        .zip(values)
        .map(|(n, v)| (*n, Value::Int(v)))
        .collect();
    let v = super::sysmod::struct_seq("time.struct_time", &fields)
        .ok_or_else(|| Error::new(ExceptionClass::RuntimeError, "struct_time"))?;
    if let Value::Instance(i) = &v {
        attr_set(&i.attrs, "tm_zone", Value::str(zone));
        attr_set(&i.attrs, "tm_gmtoff", Value::Int(offset));
    }
    Ok(v)
}

fn gmtime(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    struct_time(seconds(a)?, 0, 0, "GMT")
}

fn localtime(_: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let t = seconds(a)?;
    let (offset, isdst, zone) = zone_at(t);
    struct_time(t, offset, isdst, &zone)
}

/// The machine's zone at `t`: (offset east of UTC in seconds, dst flag, abbreviation),
/// from the TZif file `TZ` names or `/etc/localtime`; UTC when there is none.
fn zone_at(t: i64) -> (i64, i64, String) {
    let path = match std::env::var("TZ") {
        Ok(tz) if tz.is_empty() || tz == "UTC" || tz == "GMT" => return (0, 0, "UTC".into()),
        Ok(tz) => match tz.strip_prefix(':').unwrap_or(&tz) {
            p if p.starts_with('/') => p.to_string(),
            name => format!("/usr/share/zoneinfo/{name}"),
        },
        Err(_) => "/etc/localtime".into(),
    };
    std::fs::read(path)
        .ok()
        .and_then(|data| tzif_at(&data, t))
        .unwrap_or((0, 0, "UTC".into()))
}

/// The local time type in effect at `t` in a TZif file's first (32-bit) block.
fn tzif_at(data: &[u8], t: i64) -> Option<(i64, i64, String)> {
    if data.get(..4)? != b"TZif" {
        return None;
    }
    let be = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
    };
    let counts: Vec<usize> = (0..6)
        .map(|k| be(20 + 4 * k).map(|v| v as usize))
        .collect::<Option<_>>()?;
    let (timecnt, typecnt, charcnt) = (counts[3], counts[4], counts[5]);
    let times = 44;
    let idx = times + 4 * timecnt;
    let types = idx + timecnt;
    let chars = types + 6 * typecnt;
    let mut which = 0usize;
    for k in 0..timecnt {
        let when = i64::from(be(times + 4 * k)? as i32);
        if when <= t {
            which = *data.get(idx + k)? as usize;
        } else {
            break;
        }
    }
    let ty = types + 6 * which;
    let offset = i64::from(be(ty)? as i32);
    let isdst = i64::from(*data.get(ty + 4)?);
    let abbr = *data.get(ty + 5)? as usize;
    let name = data.get(chars + abbr..chars + charcnt)?;
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    Some((
        offset,
        isdst,
        String::from_utf8_lossy(&name[..end]).into_owned(),
    ))
}

/// The nine fields of a struct_time or 9-tuple, checked as CPython's strftime checks them.
fn time_tuple(it: &mut Interp<'_>, v: &Value, a: &Args) -> Result<([i64; 9], Option<String>)> {
    time_tuple_fields(it, v, a, true)
}

/// The nine fields of a time tuple or struct_time, each range checked when `checked` (as
/// strftime and asctime do; mktime normalizes fields out of range instead).
fn time_tuple_fields(
    it: &mut Interp<'_>,
    v: &Value,
    a: &Args,
    checked: bool,
) -> Result<([i64; 9], Option<String>)> {
    let type_error = |m: &str| a.err_at("t", Error::new(ExceptionClass::TypeError, m.to_string()));
    let (items, zone) = match v {
        Value::Tuple(t) => (t.to_vec(), None),
        Value::Instance(i) if i.class.name == "time.struct_time" => {
            let zone = match attr_get(&i.attrs, "tm_zone") {
                Some(Value::Str(s)) => Some(s.to_string()),
                _ => None,
            };
            (it.iterate_value(v, a.span("t"))?, zone)
        }
        _ => return Err(type_error("Tuple or struct_time argument required")),
    };
    if items.len() != 9 {
        return Err(type_error("strftime(): illegal time tuple argument"));
    }
    let mut f = [0i64; 9];
    for (slot, item) in f.iter_mut().zip(&items) {
        *slot = match item {
            Value::Int(i) => *i,
            Value::Bool(b) => i64::from(*b),
            other => {
                return Err(type_error(&format!(
                    "'{}' object cannot be interpreted as an integer",
                    other.type_name()
                )))
            }
        };
    }
    let range = |k: usize, lo: i64, hi: i64, what: &str| -> Result<()> {
        if f[k] < lo || f[k] > hi {
            return Err(a.err_at(
                "t",
                Error::new(ExceptionClass::ValueError, format!("{what} out of range")),
            ));
        }
        Ok(())
    };
    if !checked {
        return Ok((f, zone));
    }
    range(1, 0, 12, "month")?;
    range(2, 0, 31, "day of month")?;
    range(3, 0, 23, "hour")?;
    range(4, 0, 59, "minute")?;
    range(5, 0, 61, "seconds")?;
    range(7, 0, 366, "day of year")?;
    f[1] = f[1].max(1);
    f[2] = f[2].max(1);
    f[6] = f[6].rem_euclid(7);
    f[7] = f[7].max(1);
    Ok((f, zone))
}

fn strftime(it: &mut Interp<'_>, a: &Args) -> Result<Value> {
    let Value::Str(format) = a.value("format") else {
        return Err(a.err_at(
            "format",
            Error::new(
                ExceptionClass::TypeError,
                format!(
                    "strftime() argument 1 must be str, not {}",
                    a.value("format").type_name()
                ),
            ),
        ));
    };
    let t = match a.value("t") {
        Value::None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64);
            let (offset, isdst, zone) = zone_at(now);
            struct_time(now, offset, isdst, &zone)?
        }
        v => v.clone(),
    };
    let (f, zone) = time_tuple(it, &t, a)?;
    let zone = match zone {
        Some(z) => z,
        None if f[8] < 0 => String::new(),
        None => zone_at(0).2,
    };
    let [year, mon, mday, hour, min, sec, wday, yd, _] = f;
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let Some(d) = chars.next() else {
            out.push('%');
            break;
        };
        let text = match d {
            'Y' => year.to_string(),
            'y' => format!("{:02}", year.rem_euclid(100)),
            'm' => format!("{mon:02}"),
            'd' => format!("{mday:02}"),
            'e' => format!("{mday:2}"),
            'H' => format!("{hour:02}"),
            'I' => format!("{:02}", (hour + 11) % 12 + 1),
            'M' => format!("{min:02}"),
            'S' => format!("{sec:02}"),
            'j' => format!("{yd:03}"),
            'a' => DAYS[wday as usize][..3].to_string(),
            'A' => DAYS[wday as usize].to_string(),
            'b' | 'h' => MONTHS[(mon - 1) as usize][..3].to_string(),
            'B' => MONTHS[(mon - 1) as usize].to_string(),
            'p' => (if hour < 12 { "AM" } else { "PM" }).to_string(),
            'w' => ((wday + 1) % 7).to_string(),
            'Z' => zone.clone(),
            '%' => "%".to_string(),
            other => format!("%{other}"),
        };
        out.push_str(&text);
    }
    Ok(Value::str(out))
}
