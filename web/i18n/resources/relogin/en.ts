/** Labels of the dialog that logs in again in place after the session ended. Joined into each language's screen labels. */
const en = {
  'relogin.title': 'Log in again',
  'relogin.intro': 'Log in again to carry on: what you typed on this page stays.',
  'relogin.submit': 'Log in and continue',
  'relogin.done': 'Logged in again',
  'relogin.otherAccount': 'Logged in as another administrator: the page reloads',
};

export default en;
