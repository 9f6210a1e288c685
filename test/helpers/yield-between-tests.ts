// Every test ends with one turn of the event loop (breathe). A test file's worker must answer
// vitest's RPC within a fixed 60 s, and the runner moves from one synchronous test to the next
// without letting the loop run: a file of many child-process tests (spawnSync) on a loaded machine
// then fails the whole run with "Timeout calling onTaskUpdate" although every test passed.
import { afterEach } from 'vitest';
import { breathe } from './breathe.ts';

afterEach(breathe);
