/**
 * Vitest global setup: generates the small test models (scripts/gen/gen-test-models.mjs) once under
 * `test-output/models`, the `MODELS_DIR` that test config points at. Idempotent and fast.
 */
import { generateTestModels } from '../../scripts/gen/gen-test-models.mjs';

/** Directory the generated models are written to. */
export const TEST_MODELS_DIR = 'test-output/models';

export default function setup(): void {
  generateTestModels(TEST_MODELS_DIR);
}
