// Locations of files shipped with the project (models, generated data), resolved the same way
// whether the code runs from src/ under tsx or from dist/ after a build.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'models'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot locate the project root (package.json beside models/)');
    dir = parent;
  }
}

/** the project root: the folder holding package.json and models/ */
export const ROOT = findRoot();
/** shipped model files (weights, lexicons, rarity tables) produced by scripts/train-*.ts */
export const MODELS_DIR = join(ROOT, 'models');
/** default folder for runtime data (ledger database, generated sandbox world) */
export const DATA_DIR = join(ROOT, 'data');
