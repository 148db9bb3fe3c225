// The command a person types in a Maven project: the wrapper when the project has one.
import * as fs from 'fs';
import * as path from 'path';
import type { SuggestedCommand } from '../runner';

export function suggestMaven(cwd: string): SuggestedCommand | null {
  if (!fs.existsSync(path.join(cwd, 'pom.xml'))) return null;
  const wrapper = process.platform !== 'win32' && fs.existsSync(path.join(cwd, 'mvnw'));
  return { command: `${wrapper ? './mvnw' : 'mvn'} -B test`, because: wrapper ? 'pom.xml and mvnw' : 'pom.xml' };
}
