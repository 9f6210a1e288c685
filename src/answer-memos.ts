// The memories of answers worked out from what a run read: a digest of a config text, a scalar's
// YAML form, a quantity's stored form. Each is correct for any input (the key is the whole input of
// the answer), and each only saves work when the same text comes round again.
//
// They are listed here for the single executable (src/cli/exe-main.ts). Its start-up snapshot is
// taken after warm-up commands: it should hold the program and the chart's own data (compiled
// code, parsed templates, schemas, defaults), not the answers of the warm-up's render. Left in,
// they would make every start of the executable deserialise them, and make a render of the
// defaults (the one the warm-up ran) look cheaper than a user's render with their own values is:
// the bench measures exactly that render (docs/decisions.md, "The executable's start, fifth round").

/** A memory of answers: a Map, or anything that can say how much it holds and forget it. */
export interface AnswerMemo {
  readonly size: number;
  clear(): void;
}

const MEMOS = new Map<string, AnswerMemo>();

/** Registers `memo` (a module's own Map of answers) under `name` and returns it. */
export function answerMemo<M extends AnswerMemo>(name: string, memo: M): M {
  MEMOS.set(name, memo);
  return memo;
}

/** How many answers each memory holds, by name. */
export function answersKept(): Record<string, number> {
  return Object.fromEntries([...MEMOS].map(([name, m]) => [name, m.size]));
}

/** Forgets every remembered answer. */
export function forgetAnswers(): void {
  for (const m of MEMOS.values()) m.clear();
}
