// What a values layer may be when a program, not a command line, names it (the in-process API).

/**
 * One values layer: a file path (`-` is standard input, a URL is fetched), a YAML text with the
 * name problems should use, or plain data (read as the JSON text it is, through the same parser,
 * limits and checks as a file).
 */
export type ValuesInput = string | { name: string; text: string } | { name?: string; values: Record<string, unknown> };
