import { createInterface } from 'node:readline';

async function readHidden(prompt: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  const rl = createInterface({ input, output, terminal: true });
  // Echo is suppressed by swallowing readline's writes after the prompt.
  const write = (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput;
  (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = (text: string) => {
    if (text.startsWith(prompt)) write.call(rl, prompt);
  };
  try {
    return await new Promise<string>((resolve) => rl.question(prompt, resolve));
  } finally {
    rl.close();
    output.write('\n');
  }
}

async function readFirstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/**
 * The password from EARSHOT_PASSWORD, else a hidden prompt on a terminal,
 * else the first line of standard input (for scripts).
 */
export async function readPassword(prompt = 'Password: '): Promise<string> {
  if (process.env.EARSHOT_PASSWORD) return process.env.EARSHOT_PASSWORD;
  if (process.stdin.isTTY) return readHidden(prompt, process.stdin, process.stderr as NodeJS.WriteStream);
  return readFirstLine(process.stdin);
}

/** A visible answer: a prompt on a terminal, else the first line of standard input (for scripts). */
export async function readAnswer(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return readFirstLine(process.stdin);
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await new Promise<string>((resolve) => rl.question(prompt, resolve));
  } finally {
    rl.close();
  }
}
