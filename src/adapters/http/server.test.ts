import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { operations, routes } from '../../app/registry.ts';

// XRPC's HTTP conventions (status codes, error shapes, methods): storage is only on the way.
describeWithApp(
  'XRPC conventions',
  (app) => {
    test('an unknown nsid is 404 MethodNotImplemented', async () => {
      const result = await app().query('app.svc.nothing.here');
      assert.equal(result.status, 404);
      assert.equal(result.body.error, 'MethodNotImplemented');
    });

    test('the wrong HTTP method is 405 with the error body', async () => {
      const result = await app().query('app.svc.apikey.createApikey');
      assert.equal(result.status, 405);
      assert.equal(result.body.error, 'MethodNotAllowed');
    });

    test('a non-JSON body is 415 with the error body', async () => {
      const { token } = await app().signup('form-poster');
      const result = await app().request('POST', '/xrpc/app.svc.apikey.createApikey', {
        token,
        body: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(result.status, 415);
      assert.equal(result.body.error, 'UnsupportedMediaType');
    });

    test('/openapi.json is OpenAPI 3.1.0 and documents every operation and route', async () => {
      const { status, body } = await app().request('GET', '/openapi.json');
      assert.equal(status, 200);
      assert.equal(body.openapi, '3.1.0');
      assert.equal(body.info.version, '1.0.0');
      assert.equal(body.info.license.name, 'MIT');
      assert.equal(body.servers[0].url, `${app().ctx.config.publicUrl}/xrpc`);
      for (const operation of operations) {
        const entry = body.paths[`/${operation.nsid}`]?.[operation.kind === 'query' ? 'get' : 'post'];
        assert.ok(entry, operation.nsid);
        assert.ok(entry.responses['200'], operation.nsid);
      }
      for (const route of routes) {
        assert.ok(body.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()], route.path);
      }
      assert.deepEqual(body.components.schemas.ErrorBody.required, ['error']);
    });
  },
  {},
  { storage: 'one' },
);
