// Failing tests first through the real CLI for the runner families that need their own toolchain (jest, vitest from
// install-runners.sh's cache; pytest, go, cargo from the machine): `npm run test:heavy`, not every `npm test`.
import { describeTargetedFamilies } from '../support/targetedFamilies';

describeTargetedFamilies('greenloop fix runs the failing tests first, per runner family (real suites): jest, vitest, pytest, go, cargo @heavy', ['jest', 'vitest', 'pytest', 'go', 'cargo']);
