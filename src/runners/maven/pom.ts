// The parts of pom.xml that decide how the tests run: the Surefire and Failsafe <plugin> sections (wherever they are:
// build, pluginManagement, profiles) and the properties they read (skipTests, maven.test.skip, surefire.*, failsafe.*).
// Compared as text with white space and comments collapsed: an edit elsewhere in pom.xml (a dependency, a version)
// is no change to them.

const PLUGIN = /<plugin>(?:(?!<\/plugin>)[\s\S])*?<artifactId>\s*maven-(?:surefire|failsafe)-plugin\s*<\/artifactId>[\s\S]*?<\/plugin>/g;
const TEST_PROPERTY = /<((?:skipTests|skipITs|maven\.test\.[\w.-]+|surefire\.[\w.-]+|failsafe\.[\w.-]+|test|it\.test))>[\s\S]*?<\/\1>/g;

export function pluginSections(text: string): string | null {
  const plain = text.replace(/<!--[\s\S]*?-->/g, '');
  const parts = [...(plain.match(PLUGIN) ?? []), ...(plain.match(TEST_PROPERTY) ?? [])];
  return parts.map((p) => p.replace(/\s+/g, ' ').trim()).join('\n');
}
