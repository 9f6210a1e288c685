// The work of `agentplat lsp`, loaded only when that command runs: the server (and the protocol
// library it loads) is imported here, so no other command's start-up reads it.
import type { App } from '../app.ts';

export async function runLsp(app: App): Promise<void> {
  const { startServer } = await import('../../lsp/server.ts');
  const connection = startServer();
  // The server runs until the editor sends `exit` or closes the pipe.
  await new Promise<void>((resolve) => connection.onExit(() => resolve()));
  app.exitCode = 0;
}
