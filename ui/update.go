package ui

import (
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store"
)

// Update handles one message: it hands each kind to the part of the app
// that owns it.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return a, a.handleKey(msg)
	case tea.MouseWheelMsg:
		return a, a.wheel(msg)
	case tea.MouseClickMsg:
		return a, a.click(msg)
	case tea.WindowSizeMsg, tea.BackgroundColorMsg, tea.PasteMsg:
		return a, a.updateTerminal(msg)
	case taskEvent:
		_, cmd := a.Update(msg.msg)
		return a, tea.Batch(cmd, listen(msg.ch))
	case scanDoneMsg, watcherMsg, filesChangedMsg:
		return a, a.updateWorkspace(msg)
	case indexProgressMsg, indexDoneMsg, previewsMsg, rolesReadMsg, bodyMsg, searchDoneMsg:
		return a, a.transcript.Handle(msg)
	case jobDoneMsg:
		return a, a.jobDone(msg)
	case jobProgressMsg, jobTickMsg:
		return a, a.jobs.Handle(msg)
	case openTranscriptMsg, showSessionMsg, openTranscriptAtMsg, sourceFoundMsg:
		return a, a.updateNavigation(msg)
	case openEditorMsg, editorLoadedMsg, editorSavedMsg, editorDoneMsg, fileSavedMsg:
		return a, a.updateEditor(msg)
	case indexOpenedMsg, reindexedMsg, memorySearchMsg, indexDamagedMsg:
		return a, a.updateSearch(msg)
	case recallProgressMsg, recallDoneMsg, relatedDoneMsg:
		return a, a.search.recall.Handle(msg)
	case vaultListMsg, vaultFileMsg, vaultRenderMsg:
		return a, a.vault.Handle(msg)
	case promoteReadyMsg, promoteDoneMsg:
		return a, a.updatePromote(msg)
	case statusMsg:
		return a, a.setStatus(msg.text)
	case clearStatusMsg:
		if msg.job == a.statusJob {
			a.status = ""
		}
	}
	return a, nil
}

// updateTerminal follows what the terminal tells: its size, its
// background, a paste.
func (a *App) updateTerminal(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.layout()
		return a.transcript.afterMove()
	case tea.BackgroundColorMsg:
		a.c.SetTheme(msg.IsDark())
		a.restyleInputs()
		return a.transcript.needBody()
	case tea.PasteMsg:
		if a.editor != nil {
			a.editor.Paste(msg.Content)
		}
	}
	return nil
}

// restyleInputs gives the panes' text inputs the theme's styles again
// (the theme follows the terminal's background).
func (a *App) restyleInputs() {
	st := inputStyles(a.c.Theme)
	for _, in := range []*textinput.Model{&a.sessions.filter, &a.transcript.searchInput, &a.search.input} {
		in.SetStyles(st)
	}
}

// updateWorkspace takes a scan's snapshot, and rescans when the watcher
// sees files change.
func (a *App) updateWorkspace(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case scanDoneMsg:
		if msg.job == a.scanJob {
			a.scanned(msg)
		}
	case watcherMsg:
		if msg.err != nil {
			return a.setStatus("live updates are off: " + msg.err.Error())
		}
		a.watcher = msg.w
		return listenWatcher(msg.w)
	case filesChangedMsg:
		cmds := []tea.Cmd{a.startScan()}
		if a.watcher != nil {
			cmds = append(cmds, listenWatcher(a.watcher))
		}
		for _, p := range msg.paths {
			if p == a.transcript.path {
				cmds = append(cmds, a.transcript.Refresh())
				break
			}
		}
		return tea.Batch(cmds...)
	}
	return nil
}

// scanned shows the current scan's snapshot on the Sessions screen, and
// the open transcript's row as it now is.
func (a *App) scanned(msg scanDoneMsg) {
	a.scanning = false
	a.scanErr = msg.err
	if msg.err != nil {
		return
	}
	a.snap = msg.snap
	a.sessions.SetRows(msg.snap.Rows, msg.snap.TakenAt)
	if r, ok := rowOf(msg.snap.Rows, a.transcript.row); ok {
		a.transcript.SetRow(r)
	}
	health := map[string]string{}
	for _, ag := range msg.snap.Agents {
		if st := ag.SQLiteStore; st != nil {
			health[ag.AgentID] = memoryIndexLine(st.Memory)
		}
	}
	a.sessions.SetMemoryIndex(health)
	a.sessions.SetStoreWarnings(storeWarnings(msg.snap.Agents))
}

// jobDone records a job's end; the program ends with the last job when
// the user quit meanwhile.
func (a *App) jobDone(msg jobDoneMsg) tea.Cmd {
	cmd := a.jobs.Handle(msg)
	if a.quitting && len(a.jobs.active()) == 0 {
		return tea.Quit // the last job stopped: what it wrote is complete
	}
	if a.confirm != nil && a.confirm.whileWriting && len(a.writingJobs()) == 0 {
		// Asked whether to stop a sweep that has ended meanwhile: nothing
		// is left to stop.
		a.confirm = nil
		cmd = tea.Batch(cmd, a.setStatus("the sweep ended before you answered; q quits now"))
	}
	if msg.id == a.search.syncJob {
		cmd = tea.Batch(cmd, a.search.synced(msg.err))
	}
	if j := a.jobs.find(msg.id); j != nil && j.writes {
		// What the sweep observed moves off the pending gauges now,
		// not when the watcher next notices the cursor file.
		cmd = tea.Batch(cmd, a.startScan())
	}
	return cmd
}

// updateNavigation shows what another screen asked for: a transcript, a
// session, an observation's source.
func (a *App) updateNavigation(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openTranscriptMsg:
		if !store.Readable(msg.row) {
			return a.setStatus("no transcript to open for " + displayKey(msg.row))
		}
		a.show(screenTranscript)
		return a.transcript.Open(msg.row)
	case showSessionMsg:
		a.show(screenSessions)
		if !a.sessions.Select(msg.key) {
			return a.setStatus(msg.key + " is not in the list (a filter or the agent choice hides it)")
		}
	case openTranscriptAtMsg:
		return a.openTranscriptAt(msg)
	case sourceFoundMsg:
		return a.showSource(msg)
	}
	return nil
}

// updateEditor opens the built-in editor when its file is read, and
// follows saves, its own and the external editor's.
func (a *App) updateEditor(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case openEditorMsg:
		a.editorJob = a.nextJob()
		return loadEditor(a.c, a.editorJob, msg.path, msg.line)
	case editorLoadedMsg:
		if msg.job != a.editorJob {
			return nil
		}
		if msg.err != nil {
			return a.setStatus("cannot edit: " + msg.err.Error())
		}
		a.editor = newEditorPane(a.c, msg.doc, msg.line)
		a.layout()
		a.editor.scrollTo(true)
	case editorSavedMsg:
		if a.editor != nil {
			return a.editor.Handle(msg)
		}
	case editorDoneMsg:
		if msg.err != nil {
			return a.setStatus("editor: " + msg.err.Error())
		}
		return tea.Batch(a.setStatus("back from the editor: "+msg.path+" is read again"), a.saved(msg.path))
	case fileSavedMsg:
		return a.saved(msg.path)
	}
	return nil
}

// updateSearch follows the search index: opened, re-read after a save,
// found damaged by a query (the sync sets it aside and builds it again),
// and the memory search's results.
func (a *App) updateSearch(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case indexOpenedMsg:
		cmd, ready := a.search.opened(msg)
		if ready && a.search.syncJob == 0 {
			return tea.Batch(cmd, a.startIndexSync())
		}
		return cmd
	case reindexedMsg:
		if msg.err != nil {
			return a.setStatus("search index: " + msg.err.Error())
		}
		return a.search.refresh()
	case memorySearchMsg:
		return a.search.Handle(msg)
	case indexDamagedMsg:
		return a.startIndexSync()
	}
	return nil
}

// updatePromote opens (or fills) the section picker of a promote, and
// reports how it went.
func (a *App) updatePromote(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case promoteReadyMsg:
		if why := a.c.Caps.Promote; why != "" {
			return a.setStatus("promote: " + why)
		}
		if msg.err != nil {
			a.picker = nil
			return a.setStatus("cannot promote: " + msg.err.Error())
		}
		if a.picker != nil {
			a.picker.load(msg)
		} else {
			a.picker = newPromotePicker(a.c, msg)
		}
	case promoteDoneMsg:
		if msg.err != nil {
			return a.setStatus("not promoted: " + msg.err.Error())
		}
		cmd := a.setStatus(promotedStatus(msg.agent, msg.res))
		if msg.res.Added {
			cmd = tea.Batch(cmd, a.saved(msg.res.File))
		}
		return cmd
	}
	return nil
}
