// The sandbox: an embedded, generated, searchable world that serves all four platforms with no
// network. openSandbox() builds the world file on first use and opens it read-only.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR } from '../../paths.js';
import type { BlipnetSource, ClipnetSource, PicnetSource, VidnetSource } from '../interface.js';
import { createBlipnetSource } from './blipnet.js';
import { buildWorld, WORLD_VERSION } from './build.js';
import { createClipnetSource } from './clipnet.js';
import { World } from './db.js';
import { createPicnetSource } from './picnet.js';
import { createVidnetSource } from './vidnet.js';

export { WORLD_VERSION } from './build.js';

export interface SandboxOptions {
  /** the world file; default data/sandbox-v<WORLD_VERSION>.db */
  dbPath?: string;
  /** the clock the world is anchored to (default: the system clock) */
  now?: () => Date;
}

export interface Sandbox {
  clipnet: ClipnetSource;
  picnet: PicnetSource;
  vidnet: VidnetSource;
  blipnet: BlipnetSource;
  /** SHA-256 of the world's canonical dump: the same on every machine for one WORLD_VERSION */
  digest(): string;
  close(): void;
}

export function defaultSandboxPath(): string {
  return join(DATA_DIR, `sandbox-v${WORLD_VERSION}.db`);
}

function openWorld(path: string, now: () => Date): World | undefined {
  try {
    const world = new World(path, now);
    if (world.meta('world_version') === String(WORLD_VERSION) && world.meta('digest')) return world;
    world.close();
  } catch {
    // unreadable or foreign file: rebuilt below
  }
  return undefined;
}

export function openSandbox(opts: SandboxOptions = {}): Sandbox {
  const path = opts.dbPath ?? defaultSandboxPath();
  const now = opts.now ?? (() => new Date());
  let world = existsSync(path) ? openWorld(path, now) : undefined;
  if (!world) {
    buildWorld(path);
    world = openWorld(path, now);
    if (!world) throw new Error(`sandbox world at ${path} could not be opened after building it`);
  }
  const opened = world;
  const digest = opened.meta('digest') as string;
  return {
    clipnet: createClipnetSource(opened),
    picnet: createPicnetSource(opened),
    vidnet: createVidnetSource(opened),
    blipnet: createBlipnetSource(opened),
    digest: () => digest,
    close: () => opened.close(),
  };
}
