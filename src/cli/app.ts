// What every command receives: the streams and a place to put the exit code.
import type { Io } from './io.ts';

export interface App {
  io: Io;
  exitCode: number;
}
