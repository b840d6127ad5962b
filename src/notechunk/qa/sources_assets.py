"""The source view's inline CSS and script (kept apart from the HTML they style).

The script filters cards and rows by label (`data-q`), flagged (`data-f`) and omitted
(`data-o`) with a select and a text box; `#show=VALUE` in the URL preselects; a link to
`#c-<id>` reveals (clears a filter that hides it), scrolls to and records the chunk
(`data-target`, `data-target-top`); `data-ready` and `data-ready-ms` mark it done.
Cards use `content-visibility: auto`, so a page of thousands of lines renders only what
is on screen.
"""

PAGE_CSS = """
nav{font-size:12px;margin-bottom:6px}nav a{margin-right:10px}
.badge{display:inline-block;border-radius:3px;padding:0 6px;color:#fff;font-size:11.5px;
font-weight:600;margin-right:6px}.badge.omit{background:#5a6472}.badge.disc{background:#8a5a00}
.chunk{background:#fff;border:1px solid #dde2e8;border-left:6px solid #3b8c5a;border-radius:4px;
margin:10px 0;scroll-margin-top:8px}.chunk:target{outline:3px solid #1f6feb;outline-offset:2px}
.chunk.omit{background:#f6f0f0;border-style:dashed solid dashed solid}
.chunk>header{padding:5px 8px;border-bottom:1px solid #eef1f5;font-size:12.5px}
.meta{color:#5a6472}.cid{font-family:ui-monospace,monospace;font-size:11.5px}
.why{margin-top:3px;font-weight:600}.trim{margin-top:3px;color:#7a2e2e}.trim del{color:#a4262c}
code.flag{background:#eef1f5;border-radius:3px;padding:0 4px;margin-right:4px;font-size:11.5px}
.lines{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;padding:4px 0}
.l{white-space:pre-wrap;overflow-wrap:anywhere;padding-left:58px;text-indent:-52px;min-height:1.45em}
.l::before{content:attr(data-n);display:inline-block;width:44px;margin-right:8px;
text-align:right;color:#8a94a3;text-indent:0}
.l.sh{background:#f1f4f8}.l.sh::after{content:" (also in the chunk above)";color:#8a94a3}
.gap{opacity:.6;border-left:6px solid transparent;margin:2px 0}
.gap .cap{font:italic 11.5px system-ui,sans-serif;color:#5a6472;padding-left:8px}
details{padding:2px 8px 6px}summary{cursor:pointer;color:#3a4452;font-size:12px}
details pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0}
tr.chunk{display:table-row;border:none;border-left:none}tr.disc{background:#fbf6ea}
tr:target{outline:3px solid #1f6feb}[hidden]{display:none!important}
main>.chunk,main>.gap{content-visibility:auto;contain-intrinsic-size:auto 160px}
"""

PAGE_JS = """
(function(){
  var items=[].slice.call(document.querySelectorAll('[data-q]'));
  var gaps=[].slice.call(document.querySelectorAll('.gap'));
  var sel=document.getElementById('show'), box=document.getElementById('q');
  var count=document.getElementById('count');
  function match(el,v){
    if(!v)return true; if(v==='flagged')return el.dataset.f==='1';
    if(v==='omitted')return el.dataset.o==='1'; return el.dataset.q===v;
  }
  function apply(){
    var q=box.value.toLowerCase(), v=sel.value, n=0;
    for(var i=0;i<items.length;i++){
      var el=items[i], ok=match(el,v)&&(!q||el.textContent.toLowerCase().indexOf(q)>=0);
      el.hidden=!ok; if(ok)n++;
    }
    for(var j=0;j<gaps.length;j++)gaps[j].hidden=!!(q||v);
    count.textContent=n+' of '+items.length+' shown';
  }
  function reveal(){
    var id=decodeURIComponent(location.hash.slice(1)), el=id&&document.getElementById(id);
    if(!el||!el.dataset.q)return;
    if(el.hidden){sel.value='';box.value='';apply();}
    el.scrollIntoView();
    document.body.dataset.target=id;
    document.body.dataset.targetTop=String(Math.round(el.getBoundingClientRect().top));
  }
  sel.addEventListener('change',apply); box.addEventListener('input',apply);
  window.addEventListener('hashchange',reveal);
  var h=decodeURIComponent(location.hash.slice(1));
  if(h.indexOf('show=')===0){sel.value=h.slice(5);}
  apply(); reveal();
  document.body.dataset.ready=String(items.length);
  document.body.dataset.readyMs=String(Math.round(performance.now()));
})();
"""
