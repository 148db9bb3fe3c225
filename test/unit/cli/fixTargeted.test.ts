// Failing tests first through the real CLI for the runner families every project here has (node --test, mocha, and
// python -m unittest with python3 alone); jest, vitest, pytest, go and cargo run the same loop in `npm run test:heavy`
// (cli/fixTargetedToolchains.test.ts).
import { describeTargetedFamilies } from '../support/targetedFamilies';

describeTargetedFamilies('greenloop fix runs the failing tests first, per runner family (real suites): node --test, mocha and unittest', ['node', 'mocha', 'unittest']);
