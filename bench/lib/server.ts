// The reference server of the benchmark (bench/server.ts), started in a child process so the client's
// timings and heap are its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ServerInfo {
  small: string;
  big: string;
  /** The small server's answers to the four timed calls, replayed byte for byte (section 1g). */
  replay: string;
  managementKey: string;
  catalogKey: string;
  purchaseCode: string;
  /** 50 more valid purchase codes of the small server. */
  purchaseCodes: string[];
  walkTotal: number;
}

export async function startServer(): Promise<{ info: ServerInfo; child: ChildProcess }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  for await (const line of lines) return { info: JSON.parse(line) as ServerInfo, child };
  throw new Error('the benchmark server exited before it listened');
}
