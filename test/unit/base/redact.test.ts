// The redactor on the texts it meets: test output, headers, URLs, code shown to the model, saved JSON.
import * as assert from 'assert';
import { createRedactor } from '../../../src/base/redact';
import { modelKeyVariables, runSecrets } from '../../../src/base/secretEnv';

describe('redactor', () => {
  it('masks a known secret wherever it appears, the longer of two overlapping ones whole, short values never', () => {
    const r = createRedactor(['abcdefgh12', 'abcdefgh1234567', 'short', undefined]);
    assert.strictEqual(r.text('a abcdefgh1234567 b abcdefgh12 c short'), 'a *** b *** c short');
    const odd = 'p+a*s?s(w)[o]{r}|d\\$^.';
    assert.strictEqual(createRedactor([odd]).text(`x${odd}y`), 'x***y', 'RegExp characters in a secret are literal');
  });

  it('masks the values of credential-like variables, not other variables, short values or paths', () => {
    const { redactor } = runSecrets({
      env: {
        MY_SERVICE_TOKEN: 'tok-PLANTED-0001', PGPASSWORD: 'pg-PLANTED-0002', aws_secret_access_key: 'aws-PLANTED-0003',
        NPM_CONFIG__AUTH: 'npm-PLANTED-0004', CI_TOKEN: '1', SSH_AUTH_SOCK: '/tmp/ssh-XXXX/agent.42', NODE_ENV: 'development-mode',
      },
    });
    const out = redactor.text('tok-PLANTED-0001 pg-PLANTED-0002 aws-PLANTED-0003 npm-PLANTED-0004 CI=1 /tmp/ssh-XXXX/agent.42 development-mode');
    assert.strictEqual(out, '*** *** *** *** CI=1 /tmp/ssh-XXXX/agent.42 development-mode');
  });

  it('masks Authorization header values and bearer tokens, but leaves code and prose that only mention them', () => {
    const r = createRedactor([]);
    assert.strictEqual(r.text('Authorization: Basic dXNlcjpwYXNz\n'), 'Authorization: Basic ***\n');
    assert.strictEqual(r.text('{"authorization":"Bearer eyJhbGciOi.J9x.y"}'), '{"authorization":"Bearer ***"}');
    assert.strictEqual(r.text("headers: { authorization: 'token ghp_abc' }"), "headers: { authorization: 'token ***' }");
    assert.strictEqual(r.text('Proxy-Authorization: Digest qop-value'), 'Proxy-Authorization: Digest ***');
    assert.strictEqual(r.text("curl -H 'X: Bearer sk-1234567890' url"), "curl -H 'X: Bearer ***' url");
    for (const untouched of ["headers.authorization = 'Bearer ' + token;", 'Bearer authentication is used here', 'const auth = `Bearer ${key}`;']) {
      assert.strictEqual(r.text(untouched), untouched);
    }
  });

  it('masks the password of a URL and nothing else of it', () => {
    const r = createRedactor([]);
    assert.strictEqual(r.text('clone https://deploy:s3cr3t-pass@git.example.com/x.git'), 'clone https://deploy:***@git.example.com/x.git');
    assert.strictEqual(r.text('redis://:hunter2hunter2@cache:6379/0'), 'redis://:***@cache:6379/0');
    for (const untouched of ['http://localhost:8080/path?a=b@c', 'https://user@host/x', "'https://' + user + ':' + pass + '@'"]) {
      assert.strictEqual(r.text(untouched), untouched);
    }
  });

  it('masks every string of JSON data, keys included, and keeps its shape', () => {
    const r = createRedactor(['sk-PLANTED-KEY-1']);
    const data = { a: ['x sk-PLANTED-KEY-1', 3, null, true], 'sk-PLANTED-KEY-1': { b: 'Authorization: Bearer abc123456' } };
    assert.deepStrictEqual(r.json(data), { a: ['x ***', 3, null, true], '***': { b: 'Authorization: Bearer ***' } });
    assert.strictEqual(data.a[0], 'x sk-PLANTED-KEY-1', 'the original is left as it was');
  });

  it('withholds Greenloop\'s key variable, the one named for the key, and any other holding the same key', () => {
    const env = { OPENAI_API_KEY: 'sk-same-key-123', MODEL_KEY: 'sk-same-key-123', OTHER_KEY: 'sk-other-456' };
    assert.deepStrictEqual(modelKeyVariables(env, 'sk-same-key-123', 'MODEL_KEY').sort(), ['GREENLOOP_API_KEY', 'MODEL_KEY', 'OPENAI_API_KEY']);
  });
});
