"""Words no lexicon identifier may take, in any case style.

Lexicon values become Python and JavaScript identifiers (modules, classes,
functions, attributes, object keys, enum members) and, later, TypeScript, Go,
Rust and Java ones. A value is rejected when any of its case forms (snake,
camel, Pascal, upper snake) is in one of these sets:

- ``PYTHON_RESERVED``: keywords, soft keywords and every name in ``builtins``.
- ``JS_RESERVED``: ECMAScript reserved and strict-mode words, literals, standard
  built-in objects and Node.js globals, plus ``Object.prototype`` members that
  break plain-object keys and class statics.
- ``OTHER_LANGUAGE_RESERVED``: keywords of TypeScript, Go, Rust and Java, so a
  new emitter never meets a lexicon it cannot render.
- ``SCAFFOLD_WORDS``: generic words that templates use for their own
  scaffolding (``service``, ``store``, ``cache`` ...) and the role names
  themselves. Lexicon values never take them, so template authors may use these
  words freely without clashing with domain names.

``NODE_BUILTIN_MODULES`` and ``PYTHON_STDLIB_MODULES`` additionally constrain
every identifier and project name, since templates may name module files after
any of them.
"""

from __future__ import annotations

import builtins
import keyword
import sys

PYTHON_RESERVED: frozenset[str] = frozenset(
    set(keyword.kwlist) | set(keyword.softkwlist) | {"type"} | set(dir(builtins))
)

JS_RESERVED: frozenset[str] = frozenset(
    {
        # ECMAScript reserved words, strict-mode and future reserved words.
        "await", "break", "case", "catch", "class", "const", "continue", "debugger",
        "default", "delete", "do", "else", "enum", "export", "extends", "false",
        "finally", "for", "function", "if", "implements", "import", "in",
        "instanceof", "interface", "let", "new", "null", "package", "private",
        "protected", "public", "return", "static", "super", "switch", "this",
        "throw", "true", "try", "typeof", "var", "void", "while", "with", "yield",
        "async", "of", "get", "set", "arguments", "eval", "undefined", "NaN",
        "Infinity", "abstract", "boolean", "byte", "char", "double", "final",
        "float", "goto", "int", "long", "native", "short", "synchronized",
        "throws", "transient", "volatile",
        # Standard built-in objects and functions.
        "globalThis", "Object", "Function", "Boolean", "Symbol", "Error",
        "AggregateError", "EvalError", "RangeError", "ReferenceError",
        "SyntaxError", "TypeError", "URIError", "Number", "BigInt", "Math",
        "Date", "String", "RegExp", "Array", "Int8Array", "Uint8Array",
        "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
        "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array",
        "BigUint64Array", "Map", "Set", "WeakMap", "WeakSet", "WeakRef",
        "FinalizationRegistry", "ArrayBuffer", "SharedArrayBuffer", "DataView",
        "Atomics", "JSON", "Promise", "Reflect", "Proxy", "Intl", "Iterator",
        "isFinite", "isNaN", "parseFloat", "parseInt", "decodeURI",
        "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape",
        "unescape",
        # Node.js globals and module-scope names.
        "require", "module", "exports", "process", "console", "Buffer", "global",
        "setTimeout", "clearTimeout", "setInterval", "clearInterval",
        "setImmediate", "clearImmediate", "queueMicrotask", "structuredClone",
        "fetch", "URL", "URLSearchParams", "TextEncoder", "TextDecoder",
        "AbortController", "AbortSignal", "Event", "EventTarget", "performance",
        "crypto", "atob", "btoa", "Blob", "Headers", "Request", "Response",
        "FormData", "WebAssembly",
        # Members whose use as keys or class statics misbehaves.
        "constructor", "prototype", "toString", "toLocaleString", "valueOf",
        "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "length",
        "name", "caller", "callee", "then",
    }
)

OTHER_LANGUAGE_RESERVED: frozenset[str] = frozenset(
    {
        # TypeScript keywords and global utility types.
        "any", "as", "asserts", "declare", "infer", "is", "keyof", "module",
        "namespace", "never", "readonly", "require", "number", "string", "symbol",
        "unique", "unknown", "bigint", "satisfies", "accessor", "Record",
        "Partial", "Required", "Readonly", "Pick", "Omit", "Exclude", "Extract",
        "NonNullable", "ReturnType", "Parameters", "Awaited",
        # Go keywords and predeclared identifiers.
        "chan", "defer", "fallthrough", "func", "go", "map", "range", "select",
        "struct", "var", "append", "cap", "close", "complex", "copy", "imag",
        "make", "panic", "real", "recover", "uintptr", "rune", "error", "iota",
        "nil", "byte", "uint",
        # Rust keywords and prelude names.
        "crate", "dyn", "extern", "fn", "impl", "loop", "match", "mod", "move",
        "mut", "pub", "ref", "self", "Self", "trait", "unsafe", "use", "where",
        "become", "box", "macro", "override", "priv", "unsized", "virtual",
        "Option", "Result", "Some", "Ok", "Err", "Vec", "Box",
        # Java keywords and java.lang names.
        "assert", "strictfp", "throws", "instanceof", "Integer", "Long", "Double",
        "Float", "Character", "Byte", "Short", "Void", "Thread", "Runnable",
        "Exception", "System", "Class", "Enum", "Iterable", "Comparable",
        "Override", "Deprecated",
        # Receiver names used by convention across the languages.
        "cls", "this", "me", "it",
    }
)

SCAFFOLD_WORDS: frozenset[str] = frozenset(
    {
        # Role names and the generic nouns behind them.
        "entity", "entities", "owner", "owners", "item", "items", "resource",
        "resources", "event", "events", "identifier", "label", "quantity",
        "amount", "timestamp", "status", "statuses", "category", "categories",
        "capacity", "priority", "rate", "record", "records", "entry", "entries",
        "user", "users", "account", "accounts", "thing", "things", "object",
        "objects", "element", "elements", "node", "nodes", "obj", "data",
        "datum", "info", "value", "values", "key", "keys", "field", "fields",
        "count", "total", "size", "limit", "offset", "page", "cursor", "token",
        "state", "kind", "mode", "flag", "flags", "meta", "metadata", "payload",
        "message", "messages", "result", "results", "response", "request",
        "context", "options", "params", "args", "kwargs", "callback", "handler",
        "handlers", "listener", "listeners", "error", "errors", "exception",
        "exceptions", "warning",
        # Layers, modules and infrastructure that templates name themselves.
        "app", "main", "api", "core", "base", "common", "shared", "utils", "util",
        "helpers", "helper", "lib", "config", "settings", "constants", "models",
        "model", "schema", "schemas", "service", "services", "repository",
        "repositories", "repo", "store", "storage", "cache", "caches", "client",
        "server", "worker", "workers", "queue", "queues", "scheduler", "job",
        "jobs", "task", "tasks", "lock", "locks", "pool", "index", "registry",
        "manager", "controller", "router", "routes", "view", "views", "logger",
        "log", "logs", "logging", "clock", "timer", "now", "today", "date",
        "time", "datetime", "uuid", "rng", "random", "seed", "db",
        "database", "session", "transaction", "pipeline", "stage", "stages",
        "ledger", "gateway", "adapter", "adapters", "domain", "domains",
        "infrastructure", "interfaces", "application", "src", "test", "tests",
        "spec", "fixture", "fixtures", "mock", "stub", "fake", "setup",
        "teardown", "build", "dist", "docs", "readme", "changelog", "version",
        "package", "project", "module", "modules",
        # Collection and mapping method names that domain verbs must not shadow.
        "add", "put", "pop", "push", "remove", "clear", "update", "append",
        "extend", "insert", "discard", "has", "run", "start",
        "stop", "reset", "close", "open", "emit", "on", "off", "once", "apply",
        "call", "bind", "init", "load", "save", "dump", "dumps", "loads",
    }
)

RESERVED_WORDS: frozenset[str] = PYTHON_RESERVED | JS_RESERVED | OTHER_LANGUAGE_RESERVED

NODE_BUILTIN_MODULES: frozenset[str] = frozenset(
    {
        "assert", "async_hooks", "buffer", "child_process", "cluster", "console",
        "constants", "crypto", "dgram", "diagnostics_channel", "dns", "domain",
        "events", "fs", "http", "http2", "https", "inspector", "module", "net",
        "os", "path", "perf_hooks", "process", "punycode", "querystring",
        "readline", "repl", "stream", "string_decoder", "sys", "test", "timers",
        "tls", "trace_events", "tty", "url", "util", "v8", "vm", "wasi",
        "worker_threads", "zlib",
    }
)

PYTHON_STDLIB_MODULES: frozenset[str] = frozenset(sys.stdlib_module_names)

# Words that would betray how a challenge was staged if they reached
# agent-visible text (spec 000/002); checked as whole words in every string.
MARKER_WORDS: frozenset[str] = frozenset(
    {"bug", "bugs", "buggy", "fixme", "xxx", "hack", "todo", "canary", "canaries",
     "oracle", "herring", "gauntlet"}
)
