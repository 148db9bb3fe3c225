// gtest's names and IDs: `Suite.Test` (the suite may carry `Inst/` and `/N`, the test `/N`) is `Suite > Test`.

/** `Semver/Ordering.ComparesByPrecedence/2, where GetParam() = …` → `Semver/Ordering > ComparesByPrecedence/2`. */
export function gtestId(fullName: string): string {
  const name = fullName.replace(/, where (?:GetParam|TypeParam)\b[\s\S]*$/, '').trim();
  // Suite and test names are identifiers, with `/` before an instance or parameter: the first dot splits them.
  const dot = name.indexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} > ${name.slice(dot + 1)}` : name;
}

/** The ID back in gtest's spelling, for --gtest_filter. */
export function gtestName(id: string): string {
  const cut = id.indexOf(' > ');
  return cut > 0 ? `${id.slice(0, cut)}.${id.slice(cut + 3)}` : id;
}
