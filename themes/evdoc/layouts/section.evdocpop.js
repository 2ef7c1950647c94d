{{- /* The popover file of one evidence set in one language: the
  evdocpop output format of the set's page (hugo.toml of the component;
  evdoc build gives the set pages that output), so Hugo gives its URL for
  any baseURL path, defaultContentLanguageInSubdir and multihost, as it
  does the page's. It holds the popover body (claim-body.html) of every
  claim data key whose first value is in the set (data/evdoc/popovers.json,
  which evdoc build writes), once, rendered in the page's language, as
  a script: evdocPopovers(SET, {KEY: BODY, …}). evdoc.js loads it with a
  script element (which works over HTTP and from file://), and fills
  each popover of the page whose claim's data key (its data-ev, with
  data-ev-k after it when present) the set holds. */ -}}
{{- $id := .Params.evdoc_set.id -}}
{{- with hugo.Data.evdoc -}}
{{- $cl := .claims }}{{ $sep := "" -}}
evdocPopovers({{ jsonify $id }},{
{{- range $k := index .popovers $id -}}
{{- with index $cl $k -}}
{{ $sep }}
{{ jsonify $k }}:{{ jsonify (partial "evdoc/claim-body.html" .) }}
{{- $sep = "," -}}
{{- end -}}
{{- end }}
});
{{ end -}}
