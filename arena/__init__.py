"""The platform's side and everything that runs games, in sub-packages by what each does,
each importing only those before it:

    tools < stats < records < players < platforms < tables < review < lab < bench
          < commands < cli

It may use every other package; ``bot`` never imports it."""
