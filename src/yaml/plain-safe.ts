// Which strings can be written without quotes: those every reader reads back as the same string.
// YAML 1.2 readers (the yaml library, agentplat's own) and YAML 1.1 ones (helm's go-yaml through
// sigs.k8s.io/yaml, PyYAML, Kubernetes' decoder) disagree on plain scalars: 1.1 reads `yes`, `on`,
// `n`, `010`, `1_000`, `1:20` as booleans and numbers. A string that either could read as anything
// else is quoted by whoever writes YAML here (the manifest emitter, migrate).

const YAML11_WORDS = /^(<<|=|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;
const FIRST_INDICATOR = /^[?:,[\]{}#&*!|>'"%@`\s]|^-(\s|$)/;
const UNSAFE_INSIDE = /: |:$| #|[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/**
 * What some YAML 1.1 or 1.2 reader may resolve to a number, a null or a timestamp: integers with
 * underscores or sexagesimal parts (1_000, 1:20), binary/octal/hex, floats in every spelling the
 * loosest readers accept (.5, 1., 1e3, E0), infinities and NaN, dates.
 */
const NUMBER_LIKE = [
  /^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])*$/,
  /^[-+]?0b[01_]+$|^[-+]?0o?[0-7_]+$|^[-+]?0x[0-9a-fA-F_]+$/,
  /^[-+]?([0-9][0-9_]*)?(\.[0-9_]*)?([eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/,
  /^\d{4}-\d\d?-\d\d?([Tt ]|$)/,
];
/** Versions such as 0.11.0 stay strings for every reader (no number has two dots). */
const VERSION = /^\d+\.\d+\.\d+$/;

/** True when `s` can be written without quotes and read back as the same string by YAML 1.1 and 1.2. */
export function isPlainSafe(s: string): boolean {
  if (s === '' || s !== s.trim() || s.includes('\n')) return false;
  if (FIRST_INDICATOR.test(s) || UNSAFE_INSIDE.test(s) || YAML11_WORDS.test(s)) return false;
  return VERSION.test(s) || !NUMBER_LIKE.some((re) => re.test(s));
}
