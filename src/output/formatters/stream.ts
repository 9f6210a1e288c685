// Problems written file by file while a run goes on (validate over thousands of files keeps no
// problem of a file it has written). Text and GitHub annotations list files in name order, each
// file's problems sorted and capped on their own, so when the inputs come in name order each file
// can be written as soon as it is checked: the output is, byte for byte, what formatProblems
// gives for the whole run. Otherwise (inputs in another order, or a format that is one document:
// JSON, SARIF, JUnit) the problems are kept and written once, at the end.

import { PLAIN } from '../../plain-style.ts';
import { countProblems, type Problem, type ProblemCounts } from '../../problems/problem.ts';
import { buildReport } from '../../lint/report.ts';
import { githubAnnotations } from './github.ts';
import { formatProblems, type FormatOptions } from './index.ts';
import { textFileBlock, textSummary } from './text.ts';

export interface ProblemWriter {
  /** The problems of one input, as soon as it is checked (every input once, clean ones too). */
  file(name: string, problems: readonly Problem[]): void;
  /**
   * The run's own problems (the file-less `nothing checked` and the like), then the summary.
   * Returns the counts of every problem of the run.
   */
  end(problems: readonly Problem[]): ProblemCounts;
}

export interface WriterOptions extends Omit<FormatOptions, 'inputs'> {
  /**
   * The inputs come in name order and `end` gets no problem placed in a file already given to
   * `file`: text and GitHub annotations may be written file by file.
   */
  inOrder: boolean;
}

export function problemWriter(write: (text: string) => void, options: WriterOptions): ProblemWriter {
  const { inOrder, ...format } = options;
  if (!inOrder || (format.format !== 'text' && format.format !== 'github')) return wholeRunWriter(write, format);
  const chalk = format.format === 'text' ? (format.chalk ?? PLAIN) : PLAIN;
  const counts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  let inputs = 0;
  const add = (c: ProblemCounts): void => {
    counts.errors += c.errors;
    counts.warnings += c.warnings;
    counts.infos += c.infos;
  };
  // One file's problems as the whole report lists them: sorted, capped per rule and path.
  const listed = (problems: readonly Problem[]): Problem[] => buildReport({ ...format, problems }).problems;
  const emit = (problems: readonly Problem[]): void => {
    if (problems.length === 0) return;
    add(countProblems(problems));
    if (format.format === 'github') write(githubAnnotations(listed(problems)));
    else write(`${textFileBlock(listed(problems), chalk)}\n\n`);
  };
  return {
    file(_name, problems) {
      inputs++;
      emit(problems);
    },
    end(problems) {
      // A problem without a file is listed first in a whole report: only the run's own problems
      // have none, and they come when no file had any (nothing was checked), so last is first.
      emit(problems);
      if (format.format === 'text') write(`${textSummary(inputs, counts, chalk, format.inputNoun)}\n`);
      return counts;
    },
  };
}

function wholeRunWriter(write: (text: string) => void, format: Omit<FormatOptions, 'inputs'>): ProblemWriter {
  const all: Problem[] = [];
  const inputs: string[] = [];
  return {
    file(name, problems) {
      inputs.push(name);
      all.push(...problems);
    },
    end(problems) {
      all.push(...problems);
      write(formatProblems(all, { ...format, inputs }));
      return countProblems(all);
    },
  };
}
