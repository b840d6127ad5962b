
(function(){
var COLORS={"context_dead":"#b8383d","fragment":"#e07b39","ok":"#3b8c5a","short":"#d9a21b","too_long":"#7d5ba6","too_long_tokens":"#5b6fa6"};
function e(s){return String(s).replace(/&/g,'&amp;').replace(/</g,'&lt;').replace(/>/g,'&gt;')
.replace(/"/g,'&quot;').replace(/'/g,'&#x27;');}
function col(q){return COLORS[q]||'#4a78b5';}
function inflate(b64){
  var bin=atob(b64), a=new Uint8Array(bin.length);
  for(var i=0;i<bin.length;i++)a[i]=bin.charCodeAt(i);
  var s=new Blob([a]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Response(s).text();
}
function lines(L,a,b,sh){
  var o=[];
  for(var n=a;n<=b;n++){
    o.push('<div class="'+(n<=sh?'l sh':'l')+'" data-n="'+n+'">'+e(L[n-1])+'</div>');
  }
  return o.join('');
}
function attrs(c){
  return 'id="c-'+e(c.id)+'" data-q="'+e(c.q)+'" data-f="'+c.f+'" data-o="'+c.o+'"';
}
function header(c){
  var h='<span class="badge" style="background:'+col(c.q)+'">'+e(c.q)+'</span>';
  if(c.o)h+='<span class="badge omit">omitted</span>';
  h+='<a class="cid" href="#c-'+e(c.id)+'">'+e(c.id)+'</a> <span class="meta">'+e(c.m)+'</span>';
  if(c.p)h+='<div class="meta">'+e(c.p)+'</div>';
  if(c.fl&&c.fl.length){
    h+='<div>'+c.fl.map(function(f){return '<code class="flag">'+e(f)+'</code>';}).join('');
    h+='</div>';
  }
  if(c.why!=null){
    h+='<div class="why">'+e(c.why);
    if(c.orig)h+=' (<a href="'+e(c.orig)+'">see the original</a>)';
    h+='</div>';
  }
  (c.tr||[]).forEach(function(t){
    h+='<div class="trim">trimmed, context-dead'+(t[0]?' ('+e(t[0])+')':'')+': <del>'+
      e(t[1])+'</del></div>';
  });
  return h;
}
function markdown(d,L){
  var o=[];
  if(d.unread)o.push('<p class="note">The source file could not be read again when this page '+
    'was written: each card shows the chunk\'s text instead of the file\'s lines.</p>');
  d.items.forEach(function(it){
    if(it.g){
      var cap='';
      if(it.cap!=null){
        cap='<div class="cap" title="headings are kept as each chunk\'s heading path; '+
          'front matter, blank lines and markup carry no text">in no chunk'+
          (it.cap?': '+e(it.cap):'');
        if(it.lost){
          cap+=' <span class="bad">'+it.lost+' line'+(it.lost!==1?'s':'')+' unaccounted</span>';
        }
        cap+='</div>';
      }
      o.push('<div class="gap">'+cap+lines(L,it.g[0],it.g[1],0)+'</div>');
      return;
    }
    var body=it.x!=null?'<div class="l" data-n="">'+e(it.x)+'</div>':lines(L,it.a,it.b,it.sh);
    o.push('<section class="chunk'+(it.o?' omit':'')+'" style="border-left-color:'+col(it.q)+'" '+
      attrs(it)+'><header>'+header(it)+'</header><div class="lines">'+body+'</div></section>');
  });
  return o.join('');
}
function sheets(d){
  var o=[];
  d.sheets.forEach(function(s){
    o.push('<h2>Sheet '+e(s.name)+'</h2>');
    s.notes.forEach(function(n){o.push('<p class="note">'+e(n)+'</p>');});
    var rows=s.rows.map(function(r){
      if(r.d!=null)return '<tr class="disc" data-q="discarded" data-f="1" data-o="1">'+
        '<td class="num">'+r.d+'</td><td><span class="badge disc">discarded</span></td>'+
        '<td>'+e(r.why)+
        '</td><td class="text">'+e(r.x)+'</td></tr>';
      return '<tr class="chunk'+(r.o?' omit':'')+'" style="border-left:6px solid '+col(r.q)+'" '+
        attrs(r)+'><td class="num">'+e(r.row)+'</td><td>'+header(r)+'</td><td>'+e(r.grp)+
        '</td><td class="text">'+e(r.x)+'</td></tr>';
    });
    o.push('<table><thead><tr><th>row</th><th>chunk</th><th>group / why</th><th>text</th></tr>'+
      '</thead><tbody>'+rows.join('')+'</tbody></table>');
  });
  return o.join('');
}
function render(d,text){
  var L=text==null?[]:text.split('\n');
  document.getElementById('title').innerHTML=(d.t?'<p>'+e(d.t)+'</p>':'')+'<p class="note">'+
    e(d.s)+'</p>'+d.err.map(function(x){return '<p class="bad">'+e(x)+'</p>';}).join('');
  var sel=document.getElementById('show');
  sel.innerHTML=d.opts.map(function(x){
    return '<option value="'+e(x[0])+'">'+e(x[1])+'</option>';
  }).join('');
  var main=document.querySelector('main');
  main.innerHTML=d.kind==='spreadsheet'?sheets(d):markdown(d,L);
  var items=[].slice.call(main.querySelectorAll('[data-q]'));
  var gaps=[].slice.call(main.querySelectorAll('.gap'));
  var box=document.getElementById('q'), count=document.getElementById('count');
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
    var old=document.querySelector('.tgt'); if(old)old.classList.remove('tgt');
    el.classList.add('tgt'); el.scrollIntoView();
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
}
var raw=document.getElementById('nc-data').textContent.trim();
Promise.all([inflate(raw),window.NC_TEXT==null?null:inflate(window.NC_TEXT)]).then(function(got){
  render(JSON.parse(got[0]),got[1]);
}).catch(function(err){
  document.querySelector('main').textContent='This page could not be shown: '+err;
  document.body.dataset.ready='error';
});
})();
