// Failing tests first through the real CLI for the Node runner families every project here has (node --test, mocha);
// jest, vitest, pytest, go and cargo run the same loop in `npm run test:heavy` (cli/fixTargetedToolchains.test.ts).
import { describeTargetedFamilies } from '../support/targetedFamilies';

describeTargetedFamilies('greenloop fix runs the failing tests first, per runner family (real suites): node --test and mocha', ['node', 'mocha']);
