// node's dot reporter: a line of dots and Xs, then "Failed tests:" with bare names (no suite path). Its parser gives it
// no score and its room says why it cannot be read; one pattern for both.
export const NODE_DOT = /^[.X]+\s*\n[\s\S]*^Failed tests:\s*$/m;
