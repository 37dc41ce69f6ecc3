/** Labels of the saved-views menu as the gateway keeps the views. Joined into each language's screen labels. */
const en = {
  'views.loading': 'Loading saved views…',
  'views.loadFailed': 'Saved views could not be loaded',
  'views.retry': 'Try again',
  'views.saving': 'Saving…',
  'views.saveFailed': 'The view could not be saved',
  'views.deleteFailed': 'The view could not be deleted',
  'views.full': 'This list already has {{max}} saved views: delete one first',
  'views.fullAdmin': 'You already keep {{max}} saved views over all lists: delete one first',
  'views.uploaded_one': '{{count}} view saved in this browser is now kept with your account',
  'views.uploaded_other': '{{count}} views saved in this browser are now kept with your account',
};

export default en;
