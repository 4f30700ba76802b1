// A real SMTP submission server for the server's tests (npm smtp-server, the one maildev is built
// on): STARTTLS with the given certificate, then AUTH PLAIN or LOGIN for one user; AUTH is neither
// offered nor taken before TLS. Prints `smtp on PORT`, then one JSON line per message it accepted:
// `{from, to, secure, user, data}`.
//   WM_SMTP_TEST_PASSWORD=… node smtp-starttls.mjs --cert cert.pem --key key.pem --user NAME
import { readFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0 || !process.argv[i + 1]) throw new Error(`${name} is required`);
  return process.argv[i + 1];
};
const user = arg('--user');
const password = process.env.WM_SMTP_TEST_PASSWORD;
if (!password) throw new Error('WM_SMTP_TEST_PASSWORD is required');

const server = new SMTPServer({
  secure: false,
  key: readFileSync(arg('--key')),
  cert: readFileSync(arg('--cert')),
  authMethods: ['PLAIN', 'LOGIN'],
  allowInsecureAuth: false,
  size: 1 << 20,
  logger: false,
  onAuth(auth, session, done) {
    if (!session.secure) return done(new Error('TLS first'));
    if (auth.username === user && auth.password === password) return done(null, { user });
    return done(new Error('Invalid username or password'));
  },
  onMailFrom(_address, session, done) {
    done(session.user ? null : Object.assign(new Error('Authentication required'), { responseCode: 530 }));
  },
  onData(stream, session, done) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', () => {
      console.log(
        JSON.stringify({
          from: session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          secure: session.secure,
          user: session.user,
          data: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      done();
    });
  },
});
server.on('error', (e) => console.error(`smtp: ${e.message}`));
server.listen(0, '127.0.0.1', () => console.log(`smtp on ${server.server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
